/* Haferl: the hand form (#hand-form, on the table page and a hand's correction): only
 * valid choices, the card-count calculator, the preview, and fewer taps. */
import { FILLED_EVENT, HAND_FORM_ID } from "./hooks.js";
import { applyContract } from "./contract.js";
import * as counter from "./counter.js";
import * as preview from "./preview.js";

export function start() {
  const form = document.getElementById(HAND_FORM_ID);
  if (!form) return;
  // Durch is one of the bids: ticking it lets go of the number, a number lets go of it.
  form.addEventListener("change", (event) => {
    const input = event.target;
    if (input.name === "durch") {
      form.querySelectorAll("input[name=bid]").forEach((bid) => {
        bid.checked = !input.checked && bid.value === "61";
      });
    } else if (input.name === "bid") {
      const durch = form.querySelector("input[name=durch]");
      if (durch) durch.checked = false;
    }
  });
  counter.start(form);
  const shown = preview.start(form);
  form.addEventListener(FILLED_EVENT, () => applyContract(form));

  // Fewer taps: once the contract (or its trump) is tapped, the points field takes the
  // keypad, whose Enter saves the hand. Not when the choice came from the keyboard: arrow
  // keys walk through a group's chips and must stay there.
  let byKeyboard = false;
  form.addEventListener("keydown", () => { byKeyboard = true; });
  form.addEventListener("pointerdown", () => { byKeyboard = false; });
  form.addEventListener("change", (event) => {
    if (byKeyboard) return;
    if (["contract", "trump", "bid"].indexOf(event.target.name) < 0) return;
    const points = form.elements.points;
    if (!points || points.value !== "") return;
    if (points.closest("[hidden]")) return;
    points.focus();
  });

  applyContract(form);
  shown.first();
}
