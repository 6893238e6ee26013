/* Haferl: light or dark, per device (static/theme.js applies it before the page is drawn). */
import { THEME, THEME_SWITCH, SELECTOR } from "./hooks.js";
import { THEME_KEY } from "./storage.js";

export function start() {
  const themeSwitch = document.querySelector(SELECTOR(THEME_SWITCH));
  if (!themeSwitch) return;
  themeSwitch.hidden = false;
  themeSwitch.addEventListener("click", () => {
    const root = document.documentElement;
    const current = root.getAttribute(THEME) ||
      (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
    const next = current === "dark" ? "light" : "dark";
    root.setAttribute(THEME, next);
    try { localStorage.setItem(THEME_KEY, next); } catch { /* this page only */ }
  });
}
