/* Haferl: the table page's entry bar: what the hand would pay or was saved (#preview), and
 * while the queue holds hands, the queue instead (#waiting): "Offline – 2 hands waiting"
 * and the first of them. */
import { CONFLICT_ID, HINT, KEEP, PREVIEW_ID, SAID, WAITING_ID } from "./hooks.js";
import { said } from "./words.js";

const SHOWN = 2;

export const bar = () => document.getElementById(PREVIEW_ID);
export const waiting = () => document.getElementById(WAITING_ID);

/** The queue in the bar (words from `form`), or the bar itself when it is empty. */
export function showWaiting(form, queue, failing) {
  const list = waiting();
  const shown = queue.length > 0 && !document.getElementById(CONFLICT_ID);
  list.hidden = !shown;
  bar().hidden = shown;
  if (!shown) return;
  list.textContent = "";
  const head = document.createElement("strong");
  if (failing) {
    head.textContent = queue.length === 1 ? said(form, SAID.waitingOne) : said(form, SAID.waiting, { count: queue.length });
  } else {
    head.textContent = said(form, SAID.sending, { number: queue[0].number });
  }
  list.appendChild(head);
  const items = document.createElement("ul");
  queue.slice(0, SHOWN).forEach((entry) => {
    const item = document.createElement("li");
    item.textContent = "#" + entry.number + " · " + entry.summary;
    items.appendChild(item);
  });
  if (queue.length > SHOWN) items.lastChild.textContent += " …";
  list.appendChild(items);
}

/** The bar's hint for the next hand (the preview was of a hand now waiting). */
export function hint() {
  const box = bar();
  box.removeAttribute(KEEP);
  box.textContent = "";
  const p = document.createElement("p");
  p.className = "muted";
  p.textContent = box.getAttribute(HINT) || "";
  box.appendChild(p);
}
