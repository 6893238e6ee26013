/* Haferl: the table page's queue sent in order, one hand at a time, whenever the server
 * answers, each with its Idempotency-Key: a retry after a lost answer carries the same
 * key, so it is stored once. Until the server answers the bar says "Offline – 2 hands
 * waiting". A hand the server did not take stops the queue with a panel (conflict.js). */
import { KEEP, SAID } from "./hooks.js";
import { bar, showWaiting, waiting } from "./bar.js";
import { openPanel, showConflict, showRefusal } from "./conflict.js";
import * as live from "./live.js";
import { renewToken } from "./token.js";
import { said } from "./words.js";

const RETRY_MS = 3000;
let form = null, queue = null;
let sending = false, failing = false, retryTimer = null;
let freshTokenFor = null;  // the hand sent once more with a fresh token

/** Sends the queue `hands` (queue.js) of the hand form `form`. */
export function start(handForm, hands) {
  form = handForm;
  queue = hands;
}

/** The queue in the bar, as the sending stands. */
export function showQueue() {
  showWaiting(form, queue.load(), failing);
}

function retryLater() {
  failing = true;
  showQueue();
  clearTimeout(retryTimer);
  retryTimer = setTimeout(send, RETRY_MS);
}

/** Sends the queue's first hand, and the next when it was taken. */
export function send() {
  clearTimeout(retryTimer);
  if (sending || openPanel()) return;
  const hands = queue.load();
  if (!hands.length) return;
  const entry = hands[0];
  sending = true;
  showQueue();
  const body = new FormData();
  entry.fields.forEach((field) => { body.append(field[0], field[1]); });
  body.append("number", entry.number);
  body.append("csrf_token", form.elements.csrf_token.value);
  live.expect();
  fetch(form.action, {
    method: "POST",
    body,
    credentials: "same-origin",
    headers: { "Accept": "application/json", "Idempotency-Key": entry.id },
  }).then((response) =>
    response.json().catch(() => null).then((data) => ({ status: response.status, data: data || {} })),
  ).then((answer) => {
    sending = false;
    failing = false;
    const data = answer.data;
    live.settle(answer.status === 201 ? data.etag : null);
    if (answer.status === 201) {
      freshTokenFor = null;
      queue.drop(entry.id);
      if (queue.load().length) { send(); return; }
      showQueue();
      bar().innerHTML = data.bar;
      bar().setAttribute(KEEP, "");
      live.refresh(data.etag);
      return;
    }
    if (answer.status === 409 && data.conflict) {
      const focus = showConflict(entry, data);
      showQueue();
      focus();
      return;
    }
    if (answer.status === 422 || answer.status === 409 || answer.status === 404) {
      // Refused (a rule, a closed evening): the queue stops here until the player says
      // what becomes of the hand. Nothing is dropped without a tap.
      const focus = showRefusal(form, entry, data);
      showQueue();
      focus();
      return;
    }
    if (answer.status === 400 && freshTokenFor !== entry.id) {  // its token expired: once more
      freshTokenFor = entry.id;
      renewToken().then(send);
      return;
    }
    if (answer.status === 400) {  // the page's form is out of date even with a fresh token
      failing = true;
      showQueue();
      const stale = document.createElement("p");
      stale.className = "field-error";
      stale.textContent = said(form, SAID.reload);
      waiting().appendChild(stale);
      clearTimeout(retryTimer);
      retryTimer = setTimeout(send, RETRY_MS * 5);
      return;
    }
    retryLater();  // busy, too many, the server down behind a proxy: try again
  }).catch(() => {
    live.settle(null);
    sending = false;
    retryLater();
  });
}
