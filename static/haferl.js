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

  // The table page keeps the screen on while the evening runs. The Wake Lock API exists
  // only in a secure context; a tablet on the pub's Wi-Fi opens plain http, where the usual
  // way is a tiny muted video playing in a loop (the media of NoSleep.js, MIT, in
  // static/keep-awake/). Let go when the page is hidden, taken again when it shows.
  if (document.body.classList.contains("table-page")) {
    var keepAwake;
    if (navigator.wakeLock) {
      keepAwake = function () {
        navigator.wakeLock.request("screen").catch(function () { /* refused: nothing to do */ });
      };
    } else {
      var base = document.querySelector("script[src*='haferl.js']").src.replace(/haferl\.js.*$/, "");
      var video = document.createElement("video");
      video.className = "keep-awake";
      video.muted = true;
      video.loop = true;
      video.setAttribute("muted", "");
      video.setAttribute("playsinline", "");
      video.setAttribute("aria-hidden", "true");
      ["webm", "mp4"].forEach(function (kind) {
        var source = document.createElement("source");
        source.src = base + "keep-awake/screen." + kind;
        source.type = "video/" + kind;
        video.appendChild(source);
      });
      document.body.appendChild(video);
      keepAwake = function () {
        var playing = video.play();
        if (playing) playing.catch(function () { /* wants a tap first: see below */ });
      };
      document.addEventListener("pointerdown", function () { if (video.paused) keepAwake(); });
    }
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") keepAwake();
      else if (video) video.pause();
    });
    keepAwake();
  }

  // New tournament: the hint under "deals per player" says what the number typed makes of
  // a round (a table of four plays 4 × deals hands, each player 3 ×; a table of three 3 ×).
  document.querySelectorAll("[data-deals-hint]").forEach(function (hint) {
    var input = hint.closest(".param") && hint.closest(".param").querySelector("input");
    if (!input) return;
    input.addEventListener("input", function () {
      var n = parseInt(input.value, 10);
      if (!(n >= 1 && n <= 20)) return;
      hint.textContent = hint.getAttribute("data-deals-hint")
        .replace("{deals}", n).replace("{four}", 4 * n)
        .replace("{plays}", 3 * n).replace("{three}", 3 * n);
    });
  });

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
      // Hands entered here that the server has not taken yet (entry.js's queue).
      var waiting = 0;
      try { waiting = (JSON.parse(localStorage.getItem("haferl.queue." + t.url.split("/")[2])) || []).length; } catch (e) { waiting = 0; }
      if (waiting) {
        var note = document.createElement("span");
        note.className = "waiting-note";
        note.textContent = waiting === 1 ? recentBox.getAttribute("data-said-waiting-one")
          : recentBox.getAttribute("data-said-waiting").replace("%(count)s", waiting);
        link.appendChild(document.createTextNode(" · "));
        link.appendChild(note);
      }
      var item = document.createElement("li");
      item.appendChild(link);
      list.appendChild(item);
    });
    if (list.children.length) recentBox.hidden = false;
  }

  var form = document.getElementById("hand-form");
  if (!form) return;
  // The form's contents may be swapped for the server's fresh ones (live.js) or cleared for
  // the next hand (entry.js): everything below looks its fields up when it needs them.

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
    // A bid only where the bid row shows: a contract without one goes back to 61.
    form.querySelectorAll(".choices.bids").forEach(function (bids) {
      if (!bids.closest("[hidden]")) return;
      bids.querySelectorAll("input").forEach(function (input) {
        input.checked = input.type === "radio" && input.value === "61";
      });
    });
    // A Durch bid asks "made or lost" once: no Extras toggle beside it, and no card points
    // when it was made (every trick is all of them).
    var durch = form.querySelector("input[name=durch]");
    var isDurch = !!(durch && durch.checked && !durch.closest("[hidden]"));
    var made = isDurch && !!form.querySelector("input[name=durch_result][value=made]:checked");
    form.querySelectorAll("[data-durch-only]").forEach(function (el) { el.hidden = !isDurch; });
    form.querySelectorAll("[data-not-durch]").forEach(function (el) { if (isDurch) el.hidden = true; });
    form.querySelectorAll("[data-not-durch-made]").forEach(function (el) { if (made) el.hidden = true; });
  }
  // Durch is one of the bids: ticking it lets go of the number, a number lets go of it.
  form.addEventListener("change", function (event) {
    var input = event.target;
    if (input.name === "durch") {
      form.querySelectorAll("input[name=bid]").forEach(function (bid) {
        bid.checked = !input.checked && bid.value === "61";
      });
    } else if (input.name === "bid") {
      var durch = form.querySelector("input[name=durch]");
      if (durch) durch.checked = false;
    }
  });

  // Card-count calculator: fills the points field and shows its arithmetic. Its messages
  // come translated from the page (data-at-most …), with %(name)s placeholders to fill.
  function say(counter, name, values) {
    return (counter.getAttribute("data-" + name) || "").replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function count(counter) {
    var total = parseInt(counter.getAttribute("data-total"), 10);
    var sum = 0, parts = [], counted = 0, cards = 0, impossible = [];
    counter.querySelectorAll("input[data-value]").forEach(function (input) {
      var n = parseInt(input.value, 10) || 0;
      var value = parseInt(input.getAttribute("data-value"), 10);
      var most = parseInt(input.getAttribute("max"), 10);
      if (n < 0 || n > most) impossible.push(say(counter, "at-most", { label: input.getAttribute("data-label"), most: most }));
      if (input.name === "count_cards") { cards = n; return; }
      if (n) { sum += n * value; counted += n; parts.push(n + "×" + value); }
    });
    if (total !== 120 && cards && cards < counted) {
      impossible.push(say(counter, "at-least", { counted: counted }));
    }
    var text, points;
    var sumLine = counter.querySelector(".count-sum");
    if (impossible.length) {
      // Not a pile anyone can win: say so and leave the points empty, to be corrected.
      sumLine.textContent = say(counter, "too-many", { problems: impossible.join("; ") });
      sumLine.classList.add("field-error");
      form.elements.points.value = "";
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
    form.elements.points.value = points;
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
  // Without the server there is no preview: said, so that a blank bar is not a riddle.
  function offline() {
    var p = document.createElement("p");
    p.className = "muted";
    p.textContent = preview.getAttribute("data-said-offline");
    return p.outerHTML;
  }
  function changed() {
    applyContract();
    if (!previewUrl || !preview) return;
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++asked;
      fetch(previewUrl, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.text() : r.status >= 500 ? null : ""; })
        .then(function (html) { if (mine === asked) show(html === null ? offline() : html); })
        .catch(function () { if (mine === asked) show(offline()); });  // only the latest answer
    }, 150);
  }
  form.addEventListener("input", function (event) {
    var counter = event.target.closest(".counter");
    if (counter) count(counter);
  });
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);
  form.addEventListener("haferl:cleared", function () { clearTimeout(timer); asked++; applyContract(); });
  form.addEventListener("haferl:filled", applyContract);

  // Fewer taps: once the contract (or its trump) is tapped, the points field takes the
  // keypad, whose Enter saves the hand. Not when the choice came from the keyboard: arrow
  // keys walk through a group's chips and must stay there.
  var byKeyboard = false;
  form.addEventListener("keydown", function () { byKeyboard = true; });
  form.addEventListener("pointerdown", function () { byKeyboard = false; });
  form.addEventListener("change", function (event) {
    if (byKeyboard) return;
    if (["contract", "trump", "bid"].indexOf(event.target.name) < 0) return;
    var points = form.elements.points;
    if (!points || points.value !== "") return;
    if (points.closest("[hidden]")) return;
    points.focus();
  });

  applyContract();
  if (contract() && !(preview && preview.hasAttribute("data-keep"))) changed();
})();
