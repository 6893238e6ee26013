/* Haferl: the table page's hands are entered once and never lost.
 *
 * A saved hand goes into a queue kept in this device's storage (per table) with the
 * number the page showed for it and an Idempotency-Key, and the form is free for the next
 * hand at once. The queue is sent in order, one hand at a time, whenever the server
 * answers; until then the bar says "Offline – 2 hands waiting" and lists them. Closing or
 * reloading the page keeps the queue: the next load of the table sends it. A hand whose
 * number another device took meanwhile stops the queue with the server's conflict panel:
 * enter mine as the next hand (the hands queued after it move along) or drop mine. A
 * retry after a lost answer carries the same key, so it is stored once. Nothing here needs
 * a secure context (plain http on the pub's Wi-Fi): no service worker, no crypto.randomUUID.
 */
(function () {
  "use strict";
  var RETRY_MS = 3000, SHOWN = 2;
  var form = document.querySelector("form[data-queue]");
  if (!form || !window.fetch || !window.FormData) return;
  var STORE = "haferl.queue." + form.getAttribute("data-queue");
  var bar = document.getElementById("preview");  // what the hand would pay, or was saved
  var waiting = document.getElementById("waiting");  // the queue, while it holds hands
  var sending = false, failing = false, retryTimer = null, focusWasIn = null;
  var freshTokenFor = null;  // the hand sent once more with a fresh token

  // --- the queue in this device's storage ------------------------------------------------
  var kept = null;  // when the storage refuses (private mode): this page's memory only
  function load() {
    try { return JSON.parse(localStorage.getItem(STORE)) || []; } catch (e) { return kept || []; }
  }
  function store(queue) {
    kept = queue;
    try {
      if (queue.length) localStorage.setItem(STORE, JSON.stringify(queue));
      else localStorage.removeItem(STORE);
    } catch (e) { /* kept in memory */ }
  }
  function drop(id) { store(load().filter(function (entry) { return entry.id !== id; })); }

  function newKey() {
    var bytes = new Uint8Array(16);
    (window.crypto || window.msCrypto).getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  // --- words (from the page, in the reader's language) -----------------------------------
  function said(name, values) {
    return (form.getAttribute("data-said-" + name) || "").replace(/%\((\w+)\)s/g, function (all, key) {
      return Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function checkedLabel(name) {
    var input = form.querySelector("input[name=" + name + "]:checked");
    return input ? input.nextElementSibling.textContent.trim() : "";
  }
  function shown(input) { return input && !input.closest("[hidden]"); }
  // "Anton, Hand 76, 83, Kontra, Pagat: announced, lost": what the waiting list shows of a
  // hand, all of it (its points without a word, so that a phone's line holds them).
  function summary() {
    var declarer = (form.querySelector("input[name=declarer]:checked") || {}).value || "";
    var contract = checkedLabel("contract");
    var bid = form.querySelector("input[name=bid]:checked");
    var durch = form.querySelector("input[name=durch]:checked");
    if (shown(durch)) contract += " " + durch.nextElementSibling.textContent.trim();
    else if (shown(bid) && bid.value !== "61") contract += " " + bid.value;
    var parts = [declarer, contract];
    var points = form.elements.points;
    if (shown(points) && points.value !== "") parts.push(points.value);
    ["trump", "bettel", "durch_result"].forEach(function (name) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      if (shown(input)) parts.push(checkedLabel(name));
    });
    form.querySelectorAll("input[type=checkbox]:checked").forEach(function (box) {
      if (box.name !== "durch" && shown(box)) parts.push(box.nextElementSibling.textContent.trim());
    });
    var kontra = form.querySelector("input[name=doublings]:checked");
    if (kontra && kontra.value !== "0") parts.push(checkedLabel("doublings"));
    form.querySelectorAll(".bonus-side select").forEach(function (select) {
      if (!select.value) return;
      var name = select.closest("label").querySelector(".visually-hidden").textContent.trim();
      parts.push(name + ": " + select.options[select.selectedIndex].text);
    });
    return parts.join(", ");
  }

  // --- the form --------------------------------------------------------------------------
  function touched() {
    if (form.querySelector("input[name=declarer]:checked, input[name=contract]:checked")) return true;
    return Array.prototype.some.call(form.querySelectorAll("input[type=number], input[type=text]"), function (input) {
      return input.value !== "";
    });
  }
  function firstControl() {
    return form.querySelector("input[name=declarer]:checked") || form.querySelector("input[name=declarer]");
  }
  function focusForm() {
    var first = firstControl();
    if (first) first.focus({ preventScroll: true });
  }
  var NEUTRAL = { bid: "61", points_of: "declarer", doublings: "0" };
  function clearForm() {
    Array.prototype.forEach.call(form.elements, function (el) {
      if (el.type === "radio") el.checked = NEUTRAL[el.name] === el.value;
      else if (el.type === "checkbox") el.checked = false;
      else if (el.type === "number" || el.type === "text") el.value = "";
      else if (el.tagName === "SELECT") el.selectedIndex = 0;
    });
    form.querySelectorAll("details").forEach(function (d) { d.open = false; });
    form.querySelectorAll(".field-error, .form-note, input[name=begun]").forEach(function (p) { p.remove(); });
    var sum = form.querySelector(".count-sum");
    if (sum) sum.textContent = "";
    form.dispatchEvent(new CustomEvent("haferl:cleared"));
  }
  // The next hand's number and seats, as the page knows them ahead (no server needed).
  // `keep`: a half-entered hand keeps its declarer where he still plays this hand; one
  // who now deals and sits out is refused beside the field.
  function advance(number, keep) {
    form.elements.number.value = number;
    var ahead = document.querySelector(".upcoming-seats");
    var line = document.querySelector(".next-seats");
    var seat = ahead && ahead.content.querySelector('[data-number="' + number + '"]');
    if (!seat || !line) return;
    line.innerHTML = seat.innerHTML;
    var active = JSON.parse(seat.getAttribute("data-active"));
    var group = form.querySelector(".choices.players");
    var model = group && group.querySelector("label");
    if (!model) return;
    var chosen = keep ? (group.querySelector("input:checked") || {}).value : null;
    group.querySelectorAll("label").forEach(function (label) { label.remove(); });
    active.forEach(function (name) {
      var label = model.cloneNode(true);
      var input = label.querySelector("input");
      input.value = name;
      input.checked = name === chosen;
      label.querySelector("span").textContent = name;
      group.appendChild(label);
    });
    var row = group.closest(".row");
    row.querySelectorAll(".field-error").forEach(function (p) { p.remove(); });
    if (chosen && active.indexOf(chosen) < 0) {
      var refused = document.createElement("p");
      refused.className = "field-error";
      refused.textContent = said("sits-out", { name: chosen, number: number });
      row.appendChild(refused);
    }
  }

  // While a hand is half entered, or a conflict waits, the server's fresh form waits too.
  form.addEventListener("haferl:replace", function (event) {
    if (touched() || document.getElementById("conflict") || load().length) {
      event.preventDefault();
      return;
    }
    focusWasIn = form.contains(document.activeElement);
  });
  form.addEventListener("haferl:filled", function () {
    if (focusWasIn) focusForm();
    focusWasIn = null;
  });
  // A hand came in from another device (live.js): Undo of an earlier hand is no longer
  // offered, and a half-entered hand (held above) moves to the hand now being played.
  document.addEventListener("haferl:news", function (event) {
    var latest = event.detail.hands;
    var undo = bar.querySelector("[data-undo]");
    if (undo && parseInt(undo.getAttribute("data-undo"), 10) < latest) {
      undo.querySelectorAll("form").forEach(function (undoForm) { undoForm.remove(); });
    }
    var number = parseInt(form.elements.number.value, 10);
    if (!load().length && !document.getElementById("conflict") && number <= latest) {
      // The number it was begun as goes with it: if the hand that came in is this very
      // one (both devices entered it), the server says so instead of storing it twice.
      if (!form.elements.begun) {
        var begun = document.createElement("input");
        begun.type = "hidden";
        begun.name = "begun";
        begun.value = number;
        form.appendChild(begun);
      }
      form.querySelectorAll(".form-note").forEach(function (p) { p.remove(); });
      var note = document.createElement("p");
      note.className = "form-note";
      note.setAttribute("role", "status");
      note.textContent = said("moved", { number: number, next: latest + 1 });
      form.elements.number.insertAdjacentElement("afterend", note);
      advance(latest + 1, true);
      changedForm();  // the preview, for the hand as it stands now
    }
  });

  // --- the bar ---------------------------------------------------------------------------
  function showWaiting() {
    var queue = load();
    var shown = queue.length > 0 && !document.getElementById("conflict");
    waiting.hidden = !shown;
    bar.hidden = shown;
    if (!shown) return;
    waiting.textContent = "";
    var head = document.createElement("strong");
    if (failing) {
      head.textContent = queue.length === 1 ? said("waiting-one", {}) : said("waiting", { count: queue.length });
    } else {
      head.textContent = said("sending", { number: queue[0].number });
    }
    waiting.appendChild(head);
    var list = document.createElement("ul");
    queue.slice(0, SHOWN).forEach(function (entry) {
      var item = document.createElement("li");
      item.textContent = "#" + entry.number + " · " + entry.summary;
      list.appendChild(item);
    });
    if (queue.length > SHOWN) list.lastChild.textContent += " …";
    waiting.appendChild(list);
  }
  function hint() {
    bar.removeAttribute("data-keep");
    bar.textContent = "";
    var p = document.createElement("p");
    p.className = "muted";
    p.textContent = bar.getAttribute("data-hint") || "";
    bar.appendChild(p);
  }

  // --- the page's form token --------------------------------------------------------------
  // Renewed while the page is open (see scorer/table/page_token.py): a break of an hour
  // must not make the next hand "out of date". Every form on the page takes the new one.
  var tokenUrl = form.getAttribute("data-token"), tokenTimer = null, renewing = null;
  function renewToken() {
    if (!tokenUrl) return Promise.resolve(false);
    if (renewing) return renewing;
    renewing = fetch(tokenUrl, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.json() : null; })
      .then(function (data) {
        renewing = null;
        if (!data || !data.csrf_token) return false;
        document.querySelectorAll("input[name=csrf_token]").forEach(function (input) {
          input.value = data.csrf_token;
        });
        clearTimeout(tokenTimer);
        tokenTimer = setTimeout(renewToken, data.renew_in_s * 1000);
        return true;
      })
      .catch(function () { renewing = null; return false; })
      .then(function (ok) {
        if (!ok) {  // no answer (the Wi-Fi, the server): ask again soon
          clearTimeout(tokenTimer);
          tokenTimer = setTimeout(renewToken, RETRY_MS * 10);
        }
        return ok;
      });
    return renewing;
  }
  if (tokenUrl) tokenTimer = setTimeout(renewToken, parseInt(form.getAttribute("data-token-renew"), 10) * 1000);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") renewToken();
  });
  // Undo and the other buttons of the page post plainly: with a fresh token.
  // Sent once: a second tap while the token is renewed is the same Undo.
  document.addEventListener("submit", function (event) {
    var plain = event.target;
    if (plain === form || event.defaultPrevented || !plain.querySelector("input[name=csrf_token]")) return;
    event.preventDefault();
    if (plain.sending) return;
    plain.sending = true;
    renewToken().then(function () { plain.submit(); });
  });

  // --- sending ---------------------------------------------------------------------------
  function retryLater() {
    failing = true;
    showWaiting();
    clearTimeout(retryTimer);
    retryTimer = setTimeout(send, RETRY_MS);
  }

  function send() {
    clearTimeout(retryTimer);
    if (sending || document.getElementById("conflict")) return;
    var queue = load();
    if (!queue.length) return;
    var entry = queue[0];
    sending = true;
    showWaiting();
    var body = new FormData();
    entry.fields.forEach(function (field) { body.append(field[0], field[1]); });
    body.append("number", entry.number);
    body.append("csrf_token", form.elements.csrf_token.value);
    var live = window.Haferl && window.Haferl.live;
    if (live) live.expect();
    fetch(form.action, {
      method: "POST",
      body: body,
      credentials: "same-origin",
      headers: { "Accept": "application/json", "Idempotency-Key": entry.id }
    }).then(function (response) {
      return response.json().catch(function () { return null; }).then(function (data) {
        return { status: response.status, data: data || {} };
      });
    }).then(function (answer) {
      sending = false;
      failing = false;
      var data = answer.data;
      if (live) live.settle(answer.status === 201 ? data.etag : null);
      if (answer.status === 201) {
        freshTokenFor = null;
        drop(entry.id);
        if (load().length) { send(); return; }
        showWaiting();
        bar.innerHTML = data.bar;
        bar.setAttribute("data-keep", "");
        if (window.Haferl && window.Haferl.live) window.Haferl.live.refresh(data.etag);
        return;
      }
      if (answer.status === 409 && data.conflict) { showConflict(entry, data); return; }
      if (answer.status === 422 || answer.status === 409 || answer.status === 404) {
        // Refused (a rule, a closed evening): the queue stops here until the player says
        // what becomes of the hand. Nothing is dropped without a tap.
        showRefusal(entry, data);
        return;
      }
      if (answer.status === 400 && freshTokenFor !== entry.id) {  // its token expired: once more
        freshTokenFor = entry.id;
        renewToken().then(send);
        return;
      }
      if (answer.status === 400) {  // the page's form is out of date even with a fresh token
        failing = true;
        showWaiting();
        var stale = document.createElement("p");
        stale.className = "field-error";
        stale.textContent = said("reload", {});
        waiting.appendChild(stale);
        clearTimeout(retryTimer);
        retryTimer = setTimeout(send, RETRY_MS * 5);
        return;
      }
      retryLater();  // busy, too many, the server down behind a proxy: try again
    }).catch(function () {
      if (live) live.settle(null);
      sending = false;
      retryLater();
    });
  }

  // --- a hand another device entered first -------------------------------------------------
  function showConflict(entry, data) {
    var old = document.getElementById("conflict");
    if (old) old.remove();
    var holder = document.createElement("div");
    holder.innerHTML = data.conflict;
    var panel = holder.firstElementChild;
    panel.setAttribute("data-entry", entry.id);
    panel.setAttribute("data-next", data.next_number);
    document.body.appendChild(panel);
    showWaiting();
    var first = panel.querySelector("[data-drop]");
    if (first) first.focus({ preventScroll: true });
  }

  // A refused hand: said, with "correct it in the form" (where the server sent the form
  // back) and "drop mine".
  function showRefusal(entry, data) {
    var reason = (data.error && data.error.message) || "";
    var panel = document.createElement("div");
    panel.className = "conflict-panel";
    panel.id = "conflict";
    panel.setAttribute("role", "alertdialog");
    panel.setAttribute("data-entry", entry.id);
    var text = document.createElement("p");
    text.className = "said";
    text.textContent = said("refused", { number: entry.number, reason: reason });
    panel.appendChild(text);
    var actions = document.createElement("div");
    actions.className = "actions";
    if (data.form) {
      var correct = document.createElement("button");
      correct.type = "button";
      correct.className = "button primary";
      correct.setAttribute("data-correct", "");
      correct.textContent = said("correct", {});
      correct.formHtml = data.form;
      actions.appendChild(correct);
    }
    var dropMine = document.createElement("button");
    dropMine.type = "button";
    dropMine.className = "button";
    dropMine.setAttribute("data-drop", "");
    dropMine.textContent = said("drop", {});
    actions.appendChild(dropMine);
    panel.appendChild(actions);
    document.body.appendChild(panel);
    showWaiting();
    actions.firstElementChild.focus({ preventScroll: true });
  }

  function resolve(panel, number, formHtml) {
    var id = panel.getAttribute("data-entry");
    panel.remove();
    if (formHtml) {  // the refused hand back in the form, with what was wrong
      form.innerHTML = formHtml;
      form.dispatchEvent(new CustomEvent("haferl:filled"));
    }
    if (id) {
      var queue = load();
      var at = queue.findIndex(function (entry) { return entry.id === id; });
      if (at >= 0 && !number) queue.splice(at, 1);
      else if (at >= 0) {
        // Mine goes after theirs, and the hands entered after mine move along with it.
        var shift = number - queue[at].number;
        queue.slice(at).forEach(function (entry) { entry.number += shift; });
        // Entered as another hand on purpose: no longer compared with the one it began as.
        queue[at].fields = queue[at].fields.filter(function (field) { return field[0] !== "begun"; });
      }
      store(queue);
      showWaiting();
      var next = parseInt(panel.getAttribute("data-next"), 10);
      var entered = parseInt(document.getElementById("live-watch").getAttribute("data-live-mark"), 10);
      if (!queue.length && !number && next) {
        // Mine dropped: the form enters the table's next hand (mine had been counted in),
        // or a later one where hands came in while the panel was open.
        advance(Math.max(next, (entered || 0) + 1), true);
      }
      if (!queue.length) {
        hint();
        if (window.Haferl && window.Haferl.live) window.Haferl.live.refresh();
      }
      send();
      focusForm();
      return;
    }
    // The server's page kept my entry in the form (a page posted without this script).
    if (number === null) { location.href = panel.querySelector("[data-drop]").href; return; }
    form.elements.number.value = number;
    enqueue();
  }

  document.addEventListener("click", function (event) {
    var panel = event.target.closest("#conflict");
    if (!panel) return;
    var renumber = event.target.closest("[data-renumber]");
    var dropMine = event.target.closest("[data-drop]");
    var correct = event.target.closest("[data-correct]");
    if (!renumber && !dropMine && !correct) return;
    event.preventDefault();
    resolve(panel, renumber ? parseInt(renumber.getAttribute("data-renumber"), 10) : null,
            correct ? correct.formHtml : null);
  });

  // --- saving ------------------------------------------------------------------------------
  // The first field of a shown `data-required` row that is still empty (the rows the
  // server's preview names as "still open"), or null: Enter and Eintragen take no hand
  // that the server would refuse for a missing answer.
  function stillOpen() {
    var rows = form.querySelectorAll("[data-required]");
    for (var i = 0; i < rows.length; i++) {
      var row = rows[i];
      if (row.closest("[hidden]")) continue;
      var name = row.getAttribute("data-required");
      var inputs = row.querySelectorAll("input[name=" + name + "]");
      var filled = Array.prototype.some.call(inputs, function (input) {
        return input.type === "radio" ? input.checked : input.value !== "";
      });
      if (name === "points" && !filled) {  // counted with the calculator instead
        filled = Array.prototype.some.call(row.querySelectorAll("input[name^=count_]"), function (input) {
          return input.value !== "";
        });
      }
      if (!filled && inputs.length) return inputs[0];
    }
    return null;
  }
  function changedForm() { form.dispatchEvent(new Event("change")); }
  function enqueue() {
    var fields = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrf_token" && name !== "number" && name !== "renumber") fields.push([name, value]);
    });
    var number = parseInt(form.elements.number.value, 10);
    var queue = load();
    queue.push({ id: newKey(), number: number, fields: fields, summary: summary() });
    store(queue);
    clearForm();
    hint();  // the preview was of the hand now waiting
    advance(number + 1);
    focusForm();
    send();
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    if (!form.querySelector("input[name=declarer]:checked") ||
        !form.querySelector("input[name=contract]:checked")) {
      // The bar already says what is still open; the first open group takes the focus.
      var open = form.querySelector("input[name=declarer]:checked") ? "contract" : "declarer";
      var input = form.querySelector("input[name=" + open + "]");
      if (input) input.focus();
      return;
    }
    var open = stillOpen();
    if (open) {  // the preview in the bar says what (the server's words, the same rows)
      open.focus();
      changedForm();
      return;
    }
    var conflict = document.getElementById("conflict");
    if (conflict && !conflict.hasAttribute("data-entry")) conflict.remove();
    enqueue();
  });

  window.addEventListener("online", function () { renewToken().then(send); });
  if (window.Haferl && window.Haferl.live) {
    window.Haferl.live.onOnline(function (online) { if (online) send(); });
  }
  if (bar && bar.hasAttribute("data-keep")) focusForm();  // saved by a plain post: next hand
  if (load().length) { showWaiting(); send(); }
})();
