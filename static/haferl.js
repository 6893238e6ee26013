/* Haferl: small progressive enhancements. Every action also works as a plain form post. */
(function () {
  "use strict";

  // Light or dark, per device (theme.js applies it before the page is drawn).
  var themeSwitch = document.querySelector("[data-theme-switch]");
  if (themeSwitch) {
    themeSwitch.hidden = false;
    themeSwitch.addEventListener("click", function () {
      var root = document.documentElement;
      var current = root.getAttribute("data-theme") ||
        (window.matchMedia && window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light");
      var next = current === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try { localStorage.setItem("haferl.theme", next); } catch (e) { /* this page only */ }
    });
  }

  // The table page keeps the screen on while the evening runs (where the browser allows it:
  // a secure context, e.g. the host itself; elsewhere the device's own setting applies).
  if (document.body.classList.contains("table-page") && navigator.wakeLock) {
    var keepAwake = function () {
      if (document.visibilityState === "visible") {
        navigator.wakeLock.request("screen").catch(function () { /* refused: nothing to do */ });
      }
    };
    document.addEventListener("visibilitychange", keepAwake);
    keepAwake();
  }

  // New table: choosing a game or payment system reloads the form for it. The names typed
  // so far survive the reload in this tab's own storage.
  var TYPED_KEY = "haferl.new-table";
  var newTable = document.querySelector("form.new-table");
  function typedFields() {
    return newTable ? newTable.querySelectorAll("input[name=name], input[name^=player_]") : [];
  }
  document.querySelectorAll("select.autosubmit").forEach(function (select) {
    select.addEventListener("change", function () {
      if (select.id === "game") {
        var system = document.getElementById("system");
        if (system) system.disabled = true;
      }
      var typed = {};
      typedFields().forEach(function (input) { typed[input.name] = input.value; });
      try { sessionStorage.setItem(TYPED_KEY, JSON.stringify(typed)); } catch (e) { /* none kept */ }
      select.form.submit();
    });
  });
  if (newTable) {
    var kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(TYPED_KEY)); sessionStorage.removeItem(TYPED_KEY); } catch (e) { kept = null; }
    if (kept && typeof kept === "object") {
      typedFields().forEach(function (input) {
        if (!input.value && typeof kept[input.name] === "string") input.value = kept[input.name];
      });
    }
  }

  // New table: move players up and down, clear a row.
  document.querySelectorAll("[data-player-row]").forEach(function (row) {
    row.addEventListener("click", function (event) {
      var button = event.target.closest("button");
      if (!button) return;
      var input = row.querySelector("input[type=text]");
      if (button.hasAttribute("data-clear")) { input.value = ""; input.focus(); return; }
      var move = parseInt(button.getAttribute("data-move"), 10);
      if (!move) return;
      var rows = Array.prototype.slice.call(row.parentNode.querySelectorAll("[data-player-row]"));
      var other = rows[rows.indexOf(row) + move];
      if (!other) return;
      var otherInput = other.querySelector("input[type=text]");
      var swap = input.value; input.value = otherInput.value; otherInput.value = swap;
    });
  });

  // Tables used recently on this device: kept in its own storage, never in a cookie.
  var RECENT_KEY = "haferl.recent", RECENT_MAX = 8;
  function recentTables() {
    try { return JSON.parse(localStorage.getItem(RECENT_KEY)) || []; } catch (e) { return []; }
  }
  var remember = document.querySelector("[data-remember]");
  if (remember) {
    var said = {};
    try { said = JSON.parse(remember.getAttribute("data-said")) || {}; } catch (e) { said = {}; }
    var entry = { url: remember.getAttribute("data-url"), said: said };
    var others = recentTables().filter(function (t) { return t.url !== entry.url; });
    try {
      localStorage.setItem(RECENT_KEY, JSON.stringify([entry].concat(others).slice(0, RECENT_MAX)));
    } catch (e) { /* private mode: nothing remembered */ }
  }
  var recentBox = document.querySelector("[data-recent-tables]");
  if (recentBox) {
    var list = recentBox.querySelector("ul");
    var lang = document.documentElement.lang;
    recentTables().forEach(function (t) {
      if (typeof t.url !== "string" || !/^\/[ts]\//.test(t.url)) return;
      // Each language's words were kept; an entry from before has one of each only.
      var words = (t.said && (t.said[lang] || t.said.de)) || { name: t.name, summary: t.summary };
      var link = document.createElement("a");
      link.className = "button wide";
      link.href = t.url;
      var strong = document.createElement("strong");
      strong.textContent = words.name || "";
      link.appendChild(strong);
      link.appendChild(document.createTextNode(" · " + (words.summary || "")));
      var item = document.createElement("li");
      item.appendChild(link);
      list.appendChild(item);
    });
    if (list.children.length) recentBox.hidden = false;
  }

  var form = document.getElementById("hand-form");
  if (!form) return;

  // Only valid choices: rows that belong to some contracts only.
  function contract() {
    var checked = form.querySelector("input[name=contract]:checked");
    return checked ? checked.value : "";
  }
  function applyContract() {
    var c = contract();
    form.querySelectorAll("[data-hide-for]").forEach(function (el) {
      el.hidden = el.getAttribute("data-hide-for").split(" ").indexOf(c) >= 0;
    });
    form.querySelectorAll("[data-show-for]").forEach(function (el) {
      el.hidden = el.getAttribute("data-show-for").split(" ").indexOf(c) < 0;
    });
  }

  // Card-count calculator: fills the points field and shows its arithmetic. Its messages
  // come translated from the page (data-at-most …), with %(name)s placeholders to fill.
  var counter = form.querySelector(".counter");
  function say(name, values) {
    return (counter.getAttribute("data-" + name) || "").replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  if (counter) {
    counter.addEventListener("input", function () {
      var total = parseInt(counter.getAttribute("data-total"), 10);
      var sum = 0, parts = [], counted = 0, cards = 0, impossible = [];
      counter.querySelectorAll("input[data-value]").forEach(function (input) {
        var n = parseInt(input.value, 10) || 0;
        var value = parseInt(input.getAttribute("data-value"), 10);
        var most = parseInt(input.getAttribute("max"), 10);
        if (n < 0 || n > most) impossible.push(say("at-most", { label: input.getAttribute("data-label"), most: most }));
        if (input.name === "count_cards") { cards = n; return; }
        if (n) { sum += n * value; counted += n; parts.push(n + "×" + value); }
      });
      if (total !== 120 && cards && cards < counted) {
        impossible.push(say("at-least", { counted: counted }));
      }
      var text, points;
      var sumLine = counter.querySelector(".count-sum");
      if (impossible.length) {
        // Not a pile anyone can win: say so and leave the points empty, to be corrected.
        sumLine.textContent = say("too-many", { problems: impossible.join("; ") });
        sumLine.classList.add("field-error");
        document.getElementById("points").value = "";
        changed();
        return;
      }
      sumLine.classList.remove("field-error");
      if (total === 120) {
        points = sum;
        text = (parts.join(" + ") || "0") + " = " + points;
      } else {
        var others = Math.max(cards - counted, 0);
        var raw = sum + others;
        points = Math.round(raw - (2 * cards) / 3);
        text = (parts.join(" + ") || "0") + " + " + others + "×1 − ⅔×" + cards + " = " + points;
      }
      sumLine.textContent = text;
      document.getElementById("points").value = points;
      changed();
    });
  }

  // Preview before saving: what the hand would pay, from the server's own rules. It shows
  // in the entry bar, where the confirmation of the hand just saved (with Undo) stays until
  // the next hand is begun.
  var previewUrl = form.getAttribute("data-preview");
  var preview = document.getElementById("preview");
  var timer = null;
  var asked = 0;
  function show(html) {
    // "why?" stays open when the preview is refreshed under the reader's eyes.
    var open = preview.querySelector("details.why[open]");
    preview.innerHTML = html;
    var why = preview.querySelector("details.why");
    if (open && why) why.open = true;
    preview.removeAttribute("data-keep");
  }
  function changed() {
    applyContract();
    if (!previewUrl || !preview) return;
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++asked;
      fetch(previewUrl, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : ""; })
        .then(function (html) { if (mine === asked) show(html); })  // only the latest answer
        .catch(function () { if (mine === asked) preview.textContent = ""; });
    }, 150);
  }
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);

  // Fewer taps: once the contract (or its trump) is chosen, the points field takes the
  // keypad, whose Enter saves the hand.
  var points = document.getElementById("points");
  form.addEventListener("change", function (event) {
    if (["contract", "trump", "bid"].indexOf(event.target.name) < 0) return;
    if (!points || points.value !== "") return;
    if (points.closest("[hidden]")) return;
    points.focus();
  });

  applyContract();
  if (contract() && !(preview && preview.hasAttribute("data-keep"))) changed();
})();
