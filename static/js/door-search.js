/* Haferl: the desk at the door. Typing a few letters of a name (or club) shows only the
 * players it fits; each word typed must begin a word of the name or club ("hub an": Anna
 * Huber, not Vroni Schubert). After a
 * check-in the page comes back with the search box empty and focused, ready for the next
 * player. */
import { DOOR_NAME, DOOR_NONE, DOOR_SEARCH, SELECTOR } from "./hooks.js";

export function start() {
  const input = document.querySelector(SELECTOR(DOOR_SEARCH));
  if (!input) return;
  const rows = Array.from(document.querySelectorAll(SELECTOR(DOOR_NAME)));
  const none = document.querySelector(SELECTOR(DOOR_NONE));
  const filter = () => {
    const words = input.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
    let shown = 0;
    rows.forEach((row) => {
      const said = row.getAttribute(DOOR_NAME).split(/\s+/);
      const fits = words.every((word) => said.some((part) => part.startsWith(word)));
      row.hidden = !fits;
      if (fits) shown += 1;
    });
    if (none) none.hidden = shown > 0;
  };
  input.addEventListener("input", filter);
  filter();
  input.focus();
}
