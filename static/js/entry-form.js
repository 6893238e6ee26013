/* Haferl: the table page's hand form between hands: begun or not, cleared for the next
 * hand, moved on to the next hand's number and seats, what is still open. */
import {
  CLEARED_EVENT, NEXT_SEATS, REQUIRED, SAID, SEAT_ACTIVE, SEAT_NUMBER, SELECTOR, UPCOMING_SEATS,
} from "./hooks.js";
import { said } from "./words.js";

/** Whether a hand is begun in `form`. */
export function touched(form) {
  if (form.querySelector("input[name=declarer]:checked, input[name=contract]:checked")) return true;
  return Array.prototype.some.call(form.querySelectorAll("input[type=number], input[type=text]"),
    (input) => input.value !== "");
}

export function focusForm(form) {
  const first = form.querySelector("input[name=declarer]:checked") || form.querySelector("input[name=declarer]");
  if (first) first.focus({ preventScroll: true });
}

const NEUTRAL = { bid: "61", points_of: "declarer", doublings: "0" };

/** Empty for the next hand. */
export function clearForm(form) {
  Array.prototype.forEach.call(form.elements, (el) => {
    if (el.type === "radio") el.checked = NEUTRAL[el.name] === el.value;
    else if (el.type === "checkbox") el.checked = false;
    else if (el.type === "number" || el.type === "text") el.value = "";
    else if (el.tagName === "SELECT") el.selectedIndex = 0;
  });
  form.querySelectorAll("details").forEach((d) => { d.open = false; });
  form.querySelectorAll(".field-error, .form-note, input[name=begun]").forEach((p) => { p.remove(); });
  const sum = form.querySelector(".count-sum");
  if (sum) sum.textContent = "";
  form.dispatchEvent(new CustomEvent(CLEARED_EVENT));
}

/** The next hand's number and seats, as the page knows them ahead (no server needed).
 * `keep`: a half-entered hand keeps its declarer where he still plays this hand; one who
 * now deals and sits out is refused beside the field. */
export function advance(form, number, keep) {
  form.elements.number.value = number;
  const ahead = document.querySelector(UPCOMING_SEATS);
  const line = document.querySelector(NEXT_SEATS);
  const seat = ahead && ahead.content.querySelector("[" + SEAT_NUMBER + '="' + number + '"]');
  if (!seat || !line) return;
  line.innerHTML = seat.innerHTML;
  const active = JSON.parse(seat.getAttribute(SEAT_ACTIVE));
  const group = form.querySelector(".choices.players");
  const model = group && group.querySelector("label");
  if (!model) return;
  const chosen = keep ? (group.querySelector("input:checked") || {}).value : null;
  group.querySelectorAll("label").forEach((label) => { label.remove(); });
  active.forEach((name) => {
    const label = model.cloneNode(true);
    const input = label.querySelector("input");
    input.value = name;
    input.checked = name === chosen;
    label.querySelector("span").textContent = name;
    group.appendChild(label);
  });
  const row = group.closest(".row");
  row.querySelectorAll(".field-error").forEach((p) => { p.remove(); });
  if (chosen && active.indexOf(chosen) < 0) {
    const refused = document.createElement("p");
    refused.className = "field-error";
    refused.textContent = said(form, SAID.sitsOut, { name: chosen, number });
    row.appendChild(refused);
  }
}

/** The first field of a shown `data-required` row that is still empty (the rows the
 * server's preview names as "still open"), or null: Enter and Eintragen take no hand that
 * the server would refuse for a missing answer. */
export function stillOpen(form) {
  const rows = form.querySelectorAll(SELECTOR(REQUIRED));
  for (const row of rows) {
    if (row.closest("[hidden]")) continue;
    const name = row.getAttribute(REQUIRED);
    const inputs = row.querySelectorAll("input[name=" + name + "]");
    let filled = Array.prototype.some.call(inputs, (input) =>
      input.type === "radio" ? input.checked : input.value !== "");
    if (name === "points" && !filled) {  // counted with the calculator instead
      filled = Array.prototype.some.call(row.querySelectorAll("input[name^=count_]"), (input) => input.value !== "");
    }
    if (!filled && inputs.length) return inputs[0];
  }
  return null;
}

/** The preview, and whatever follows the form's changes, for the hand as it stands. */
export function changedForm(form) {
  form.dispatchEvent(new Event("change"));
}
