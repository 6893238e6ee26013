/* Haferl: the table page's hands are entered once and never lost.
 *
 * A saved hand goes into a queue kept in this device's storage (queue.js) and the form is
 * free for the next hand at once; the queue is sent in order (sending.js). Closing or
 * reloading the page keeps the queue: the next load of the table sends it. A hand whose
 * number another device took meanwhile stops the queue with the server's conflict panel
 * (conflict.js): enter mine as the next hand (the hands queued after it move along) or
 * drop mine. The page's form token is renewed meanwhile (token.js). Nothing here needs a
 * secure context (plain http on the pub's Wi-Fi): no service worker.
 */
import {
  CONFLICT_ENTRY, DROP, FILLED_EVENT, KEEP, LIVE_MARK, LIVE_WATCH_ID, NEWS_EVENT, QUEUE, REPLACE_EVENT, SAID, SELECTOR,
  UNDO,
} from "./hooks.js";
import { bar, hint } from "./bar.js";
import { entryOf, onChoice, openPanel } from "./conflict.js";
import { advance, changedForm, clearForm, focusForm, stillOpen, touched } from "./entry-form.js";
import { summary } from "./hand-summary.js";
import * as live from "./live.js";
import { newKey, queueOf } from "./queue.js";
import { send, showQueue, start as startSending } from "./sending.js";
import * as token from "./token.js";
import { said } from "./words.js";

let form = null, queue = null;
let focusWasIn = null;

function enqueue() {
  const fields = [];
  new FormData(form).forEach((value, name) => {
    if (name !== "csrf_token" && name !== "number" && name !== "renumber") fields.push([name, value]);
  });
  const number = parseInt(form.elements.number.value, 10);
  const hands = queue.load();
  hands.push({ id: newKey(), number, fields, summary: summary(form) });
  queue.store(hands);
  send();  // on its way first: the form is cleared while the server answers
  clearForm(form);
  hint();  // the preview was of the hand now waiting
  advance(form, number + 1);
  focusForm(form);
}

// The player chose in a panel (conflict.js).
function resolve(panel, number, formHtml) {
  const { id, next } = entryOf(panel);
  panel.remove();
  if (formHtml) {  // the refused hand back in the form, with what was wrong
    form.innerHTML = formHtml;
    form.dispatchEvent(new CustomEvent(FILLED_EVENT));
  }
  if (id) {
    const hands = queue.load();
    const at = hands.findIndex((entry) => entry.id === id);
    if (at >= 0 && !number) hands.splice(at, 1);
    else if (at >= 0) {
      // Mine goes after theirs, and the hands entered after mine move along with it.
      const shift = number - hands[at].number;
      hands.slice(at).forEach((entry) => { entry.number += shift; });
      // Entered as another hand on purpose: no longer compared with the one it began as.
      hands[at].fields = hands[at].fields.filter((field) => field[0] !== "begun");
    }
    queue.store(hands);
    showQueue();
    const entered = parseInt(document.getElementById(LIVE_WATCH_ID).getAttribute(LIVE_MARK), 10);
    if (!hands.length && !number && next) {
      // Mine dropped: the form enters the table's next hand (mine had been counted in),
      // or a later one where hands came in while the panel was open.
      advance(form, Math.max(next, (entered || 0) + 1), true);
    }
    if (!hands.length) {
      hint();
      live.refresh();
    }
    send();
    focusForm(form);
    return;
  }
  // The server's page kept my entry in the form (a page posted without this script).
  if (number === null) { location.href = panel.querySelector(SELECTOR(DROP)).href; return; }
  form.elements.number.value = number;
  enqueue();
}

export function start() {
  form = document.querySelector("form" + SELECTOR(QUEUE));
  if (!form || !window.fetch || !window.FormData) return;
  queue = queueOf(form.getAttribute(QUEUE));
  startSending(form, queue);

  // While a hand is half entered, or a conflict waits, the server's fresh form waits too.
  form.addEventListener(REPLACE_EVENT, (event) => {
    if (touched(form) || openPanel() || queue.load().length) {
      event.preventDefault();
      return;
    }
    focusWasIn = form.contains(document.activeElement);
  });
  form.addEventListener(FILLED_EVENT, () => {
    if (focusWasIn) focusForm(form);
    focusWasIn = null;
  });
  // A hand came in from another device (live.js): Undo of an earlier hand is no longer
  // offered, and a half-entered hand (held above) moves to the hand now being played.
  document.addEventListener(NEWS_EVENT, (event) => {
    const latest = event.detail.hands;
    const undo = bar().querySelector(SELECTOR(UNDO));
    if (undo && parseInt(undo.getAttribute(UNDO), 10) < latest) {
      undo.querySelectorAll("form").forEach((undoForm) => { undoForm.remove(); });
    }
    const number = parseInt(form.elements.number.value, 10);
    if (!queue.load().length && !openPanel() && number <= latest) {
      // The number it was begun as goes with it: if the hand that came in is this very
      // one (both devices entered it), the server says so instead of storing it twice.
      if (!form.elements.begun) {
        const begun = document.createElement("input");
        begun.type = "hidden";
        begun.name = "begun";
        begun.value = number;
        form.appendChild(begun);
      }
      form.querySelectorAll(".form-note").forEach((p) => { p.remove(); });
      const note = document.createElement("p");
      note.className = "form-note";
      note.setAttribute("role", "status");
      note.textContent = said(form, SAID.moved, { number, next: latest + 1 });
      form.elements.number.insertAdjacentElement("afterend", note);
      advance(form, latest + 1, true);
      changedForm(form);  // the preview, for the hand as it stands now
    }
  });

  token.start(form);
  onChoice(resolve);

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    if (!form.querySelector("input[name=declarer]:checked") ||
        !form.querySelector("input[name=contract]:checked")) {
      // The bar already says what is still open; the first open group takes the focus.
      const group = form.querySelector("input[name=declarer]:checked") ? "contract" : "declarer";
      const input = form.querySelector("input[name=" + group + "]");
      if (input) input.focus();
      return;
    }
    const open = stillOpen(form);
    if (open) {  // the preview in the bar says what (the server's words, the same rows)
      open.focus();
      changedForm(form);
      return;
    }
    const conflict = openPanel();
    if (conflict && !conflict.hasAttribute(CONFLICT_ENTRY)) conflict.remove();
    enqueue();
  });

  window.addEventListener("online", () => { token.renewToken().then(send); });
  live.onOnline((online) => { if (online) send(); });
  if (bar() && bar().hasAttribute(KEEP)) focusForm(form);  // saved by a plain post: next hand
  if (queue.load().length) { showQueue(); send(); }
}
