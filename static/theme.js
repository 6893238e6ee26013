/* Haferl: the theme this device chose (light or dark), applied before the page is drawn so
   it never flashes. Loaded blocking in <head>; tiny on purpose. */
(function () {
  "use strict";
  try {
    var theme = localStorage.getItem("haferl.theme");
    if (theme === "dark" || theme === "light") document.documentElement.setAttribute("data-theme", theme);
  } catch (e) { /* no storage: the system's preference holds */ }
})();
