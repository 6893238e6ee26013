/* Haferl: a hand of the queue that the server did not take: another device entered that
 * number first (the server's conflict panel: enter mine as the next hand, or drop mine), or
 * a rule or a closed evening refused it (said, with "correct it in the form" where the
 * server sent the form back, and "drop mine"). The queue waits until the player says. */
import {
  CONFLICT_ENTRY, CONFLICT_ID, CONFLICT_NEXT, CORRECT, DROP, RENUMBER, SAID, SELECTOR,
} from "./hooks.js";
import { said } from "./words.js";

/** The panel open now, or null. */
export const openPanel = () => document.getElementById(CONFLICT_ID);

/** The server's conflict panel for the queue's `entry`. */
export function showConflict(entry, data) {
  const old = openPanel();
  if (old) old.remove();
  const holder = document.createElement("div");
  holder.innerHTML = data.conflict;
  const panel = holder.firstElementChild;
  panel.setAttribute(CONFLICT_ENTRY, entry.id);
  panel.setAttribute(CONFLICT_NEXT, data.next_number);
  document.body.appendChild(panel);
  return () => {
    const first = panel.querySelector(SELECTOR(DROP));
    if (first) first.focus({ preventScroll: true });
  };
}

/** A panel for the queue's `entry` refused, in the words of `form`. */
export function showRefusal(form, entry, data) {
  const reason = (data.error && data.error.message) || "";
  const panel = document.createElement("div");
  panel.className = "conflict-panel";
  panel.id = CONFLICT_ID;
  panel.setAttribute("role", "alertdialog");
  panel.setAttribute(CONFLICT_ENTRY, entry.id);
  const text = document.createElement("p");
  text.className = "said";
  text.textContent = said(form, SAID.refused, { number: entry.number, reason });
  panel.appendChild(text);
  const actions = document.createElement("div");
  actions.className = "actions";
  if (data.form) {
    const correct = document.createElement("button");
    correct.type = "button";
    correct.className = "button primary";
    correct.setAttribute(CORRECT, "");
    correct.textContent = said(form, SAID.correct);
    correct.formHtml = data.form;
    actions.appendChild(correct);
  }
  const dropMine = document.createElement("button");
  dropMine.type = "button";
  dropMine.className = "button";
  dropMine.setAttribute(DROP, "");
  dropMine.textContent = said(form, SAID.drop);
  actions.appendChild(dropMine);
  panel.appendChild(actions);
  document.body.appendChild(panel);
  return () => actions.firstElementChild.focus({ preventScroll: true });
}

/** resolve(panel, number, formHtml) when the player chose: `number` the hand's new number
 * (null: drop mine), `formHtml` the refused hand back in the form. */
export function onChoice(resolve) {
  document.addEventListener("click", (event) => {
    const panel = event.target.closest("#" + CONFLICT_ID);
    if (!panel) return;
    const renumber = event.target.closest(SELECTOR(RENUMBER));
    const dropMine = event.target.closest(SELECTOR(DROP));
    const correct = event.target.closest(SELECTOR(CORRECT));
    if (!renumber && !dropMine && !correct) return;
    event.preventDefault();
    resolve(panel, renumber ? parseInt(renumber.getAttribute(RENUMBER), 10) : null,
      correct ? correct.formHtml : null);
  });
}

/** The queue's entry a panel is about (null: the server's page kept it in the form), and
 * the table's next hand number the server named. */
export function entryOf(panel) {
  return { id: panel.getAttribute(CONFLICT_ENTRY), next: parseInt(panel.getAttribute(CONFLICT_NEXT), 10) };
}
