/* Haferl: the card-count calculator fills the points field and shows its arithmetic. Its
 * messages come translated from the page (data-at-most …), with placeholders to fill.
 *
 * The card values and how many of each there are come from the page (data-value, max),
 * the arithmetic is this module's: it runs on every key, without the server. The same
 * arithmetic is the server's in scorer/domain/cardpoints.py (tarock_points: the counted
 * cards' values, 1 for every other card, − ⅔ per card, rounded), which decides. */
import {
  COUNT_AT_LEAST, COUNT_AT_MOST, COUNT_LABEL, COUNT_SUM, COUNT_TOO_MANY, COUNT_TOTAL, COUNT_VALUE,
  COUNTER, SELECTOR,
} from "./hooks.js";
import { said } from "./words.js";

function count(form, counter) {
  const total = parseInt(counter.getAttribute(COUNT_TOTAL), 10);
  let sum = 0, counted = 0, cards = 0;
  const parts = [], impossible = [];
  counter.querySelectorAll("input" + SELECTOR(COUNT_VALUE)).forEach((input) => {
    const n = parseInt(input.value, 10) || 0;
    const value = parseInt(input.getAttribute(COUNT_VALUE), 10);
    const most = parseInt(input.getAttribute("max"), 10);
    if (n < 0 || n > most) impossible.push(said(counter, COUNT_AT_MOST, { label: input.getAttribute(COUNT_LABEL), most }));
    if (input.name === "count_cards") { cards = n; return; }
    if (n) { sum += n * value; counted += n; parts.push(n + "×" + value); }
  });
  if (total !== 120 && cards && cards < counted) {
    impossible.push(said(counter, COUNT_AT_LEAST, { counted }));
  }
  let text, points;
  const sumLine = counter.querySelector(COUNT_SUM);
  if (impossible.length) {
    // Not a pile anyone can win: say so and leave the points empty, to be corrected.
    sumLine.textContent = said(counter, COUNT_TOO_MANY, { problems: impossible.join("; ") });
    sumLine.classList.add("field-error");
    form.elements.points.value = "";
    return;
  }
  sumLine.classList.remove("field-error");
  if (total === 120) {
    points = sum;
    text = (parts.join(" + ") || "0") + " = " + points;
  } else {
    const others = Math.max(cards - counted, 0);
    const raw = sum + others;
    points = Math.round(raw - (2 * cards) / 3);
    text = (parts.join(" + ") || "0") + " + " + others + "×1 − ⅔×" + cards + " = " + points;
  }
  sumLine.textContent = text;
  form.elements.points.value = points;
}

export function start(form) {
  form.addEventListener("input", (event) => {
    const counter = event.target.closest(COUNTER);
    if (counter) count(form, counter);
  });
}
