/* Haferl: the hand form offers only valid choices: rows that belong to some contracts only
 * show for them. The form's contents may be swapped for the server's fresh ones (live.js)
 * or cleared for the next hand (entry.js): its fields are looked up when needed. */
import { DURCH_ONLY, HIDE_FOR, NOT_DURCH, NOT_DURCH_MADE, SELECTOR, SHOW_FOR } from "./hooks.js";

/** The contract ticked in `form`, or "". */
export function contract(form) {
  const checked = form.querySelector("input[name=contract]:checked");
  return checked ? checked.value : "";
}

/** Shows and hides the rows of `form` for its contract. */
export function applyContract(form) {
  const c = contract(form);
  form.querySelectorAll(SELECTOR(HIDE_FOR)).forEach((el) => {
    el.hidden = el.getAttribute(HIDE_FOR).split(" ").indexOf(c) >= 0;
  });
  form.querySelectorAll(SELECTOR(SHOW_FOR)).forEach((el) => {
    el.hidden = el.getAttribute(SHOW_FOR).split(" ").indexOf(c) < 0;
  });
  // A bid only where the bid row shows: a contract without one goes back to 61.
  form.querySelectorAll(".choices.bids").forEach((bids) => {
    if (!bids.closest("[hidden]")) return;
    bids.querySelectorAll("input").forEach((input) => {
      input.checked = input.type === "radio" && input.value === "61";
    });
  });
  // A Durch bid asks "made or lost" once: no Extras toggle beside it, and no card points
  // when it was made (every trick is all of them).
  const durch = form.querySelector("input[name=durch]");
  const isDurch = !!(durch && durch.checked && !durch.closest("[hidden]"));
  const made = isDurch && !!form.querySelector("input[name=durch_result][value=made]:checked");
  form.querySelectorAll(SELECTOR(DURCH_ONLY)).forEach((el) => { el.hidden = !isDurch; });
  form.querySelectorAll(SELECTOR(NOT_DURCH)).forEach((el) => { if (isDurch) el.hidden = true; });
  form.querySelectorAll(SELECTOR(NOT_DURCH_MADE)).forEach((el) => { if (made) el.hidden = true; });
}
