/* Haferl: new table. Choosing a game or payment system reloads the form for it; the names
 * typed so far survive the reload in this tab's own storage. Players move up and down, a
 * row is cleared. */
import { AUTOSUBMIT, CLEAR, GAME_ID, MOVE, NEW_TABLE_FORM, PLAYER_ROW, SELECTOR, SYSTEM_ID } from "./hooks.js";
import { TYPED_KEY } from "./storage.js";

export function start() {
  const newTable = document.querySelector(NEW_TABLE_FORM);
  const typedFields = () =>
    newTable ? newTable.querySelectorAll("input[name=name], input[name^=player_]") : [];
  document.querySelectorAll(AUTOSUBMIT).forEach((select) => {
    select.addEventListener("change", () => {
      if (select.id === GAME_ID) {
        const system = document.getElementById(SYSTEM_ID);
        if (system) system.disabled = true;
      }
      const typed = {};
      typedFields().forEach((input) => { typed[input.name] = input.value; });
      try { sessionStorage.setItem(TYPED_KEY, JSON.stringify(typed)); } catch { /* none kept */ }
      select.form.submit();
    });
  });
  if (newTable) {
    let kept = null;
    try { kept = JSON.parse(sessionStorage.getItem(TYPED_KEY)); sessionStorage.removeItem(TYPED_KEY); } catch { kept = null; }
    if (kept && typeof kept === "object") {
      typedFields().forEach((input) => {
        if (!input.value && typeof kept[input.name] === "string") input.value = kept[input.name];
      });
    }
  }

  document.querySelectorAll(SELECTOR(PLAYER_ROW)).forEach((row) => {
    row.addEventListener("click", (event) => {
      const button = event.target.closest("button");
      if (!button) return;
      const input = row.querySelector("input[type=text]");
      if (button.hasAttribute(CLEAR)) { input.value = ""; input.focus(); return; }
      const move = parseInt(button.getAttribute(MOVE), 10);
      if (!move) return;
      const rows = Array.from(row.parentNode.querySelectorAll(SELECTOR(PLAYER_ROW)));
      const other = rows[rows.indexOf(row) + move];
      if (!other) return;
      const otherInput = other.querySelector("input[type=text]");
      const swap = input.value; input.value = otherInput.value; otherInput.value = swap;
    });
  });
}
