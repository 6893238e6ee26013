/* Haferl: new tournament. The hint under "deals per player" says what the number typed
 * makes of a round (a table of four plays 4 × deals hands, each player 3 ×; a table of
 * three 3 ×), as the server's template says it for the number it was given. */
import { DEALS_HINT, SELECTOR } from "./hooks.js";
import { fill } from "./words.js";

export function start() {
  document.querySelectorAll(SELECTOR(DEALS_HINT)).forEach((hint) => {
    const input = hint.closest(".param") && hint.closest(".param").querySelector("input");
    if (!input) return;
    input.addEventListener("input", () => {
      const n = parseInt(input.value, 10);
      if (!(n >= 1 && n <= 20)) return;
      hint.textContent = fill(hint.getAttribute(DEALS_HINT), { deals: n, four: 4 * n, plays: 3 * n, three: 3 * n });
    });
  });
}
