/* Haferl: the preview before saving, what the hand would pay, from the server's own rules.
 * It shows in the entry bar, where the confirmation of the hand just saved (with Undo)
 * stays until the next hand is begun. */
import { CLEARED_EVENT, KEEP, PREVIEW_ID, PREVIEW_URL, SAID } from "./hooks.js";
import { applyContract, contract } from "./contract.js";

// A tap or a number before this script ran (a slow tablet, a page still loading): the form
// is no longer as the page came with it.
function changedSinceLoad(form) {
  return Array.prototype.some.call(form.elements, (el) => {
    if (el.type === "radio" || el.type === "checkbox") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      return Array.prototype.some.call(el.options, (option) => option.selected !== option.defaultSelected);
    }
    return "defaultValue" in el && el.value !== el.defaultValue;
  });
}

export function start(form) {
  const previewUrl = form.getAttribute(PREVIEW_URL);
  const preview = document.getElementById(PREVIEW_ID);
  let timer = null;
  let asked = 0;
  function show(html) {
    // "why?" stays open when the preview is refreshed under the reader's eyes.
    const open = preview.querySelector("details.why[open]");
    preview.innerHTML = html;
    const why = preview.querySelector("details.why");
    if (open && why) why.open = true;
    preview.removeAttribute(KEEP);
  }
  // Without the server there is no preview: said, so that a blank bar is not a riddle.
  function offline() {
    const p = document.createElement("p");
    p.className = "muted";
    p.textContent = preview.getAttribute(SAID.offline);
    return p.outerHTML;
  }
  function changed() {
    applyContract(form);
    if (!previewUrl || !preview) return;
    // Asked at once, and only the latest answer shown: a pause for the next digit would
    // be waited after the last digit too (150 ms of it did, on every hand). The timer only
    // joins what one tap fires (a choice's input and change) into one question.
    clearTimeout(timer);
    timer = setTimeout(() => {
      const mine = ++asked;  // only the latest answer
      fetch(previewUrl, { method: "POST", body: new FormData(form), credentials: "same-origin" })
        .then((r) => (r.ok ? r.text() : r.status >= 500 ? null : ""))
        .then((html) => { if (mine === asked) show(html === null ? offline() : html); })
        .catch(() => { if (mine === asked) show(offline()); });
    }, 0);
  }
  form.addEventListener("change", changed);
  form.addEventListener("input", changed);
  form.addEventListener(CLEARED_EVENT, () => { clearTimeout(timer); asked++; applyContract(form); });
  return {
    /** The preview of the hand in the form, unless the bar keeps a saved hand and the
     * form is still as the page came with it. */
    first() {
      const kept = preview && preview.hasAttribute(KEEP);
      if (contract(form) && (!kept || changedSinceLoad(form))) changed();
    },
  };
}
