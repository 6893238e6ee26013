/* Haferl: "Anton, Hand 76, 83, Kontra, Pagat: announced, lost": what the waiting list shows
 * of a hand, all of it (its points without a word, so that a phone's line holds them). */

function checkedLabel(form, name) {
  const input = form.querySelector("input[name=" + name + "]:checked");
  return input ? input.nextElementSibling.textContent.trim() : "";
}

const shown = (input) => input && !input.closest("[hidden]");

/** The hand entered in `form`, in a line. */
export function summary(form) {
  const declarer = (form.querySelector("input[name=declarer]:checked") || {}).value || "";
  let contract = checkedLabel(form, "contract");
  const bid = form.querySelector("input[name=bid]:checked");
  const durch = form.querySelector("input[name=durch]:checked");
  if (shown(durch)) contract += " " + durch.nextElementSibling.textContent.trim();
  else if (shown(bid) && bid.value !== "61") contract += " " + bid.value;
  const parts = [declarer, contract];
  const points = form.elements.points;
  if (shown(points) && points.value !== "") parts.push(points.value);
  ["trump", "bettel", "durch_result"].forEach((name) => {
    const input = form.querySelector("input[name=" + name + "]:checked");
    if (shown(input)) parts.push(checkedLabel(form, name));
  });
  form.querySelectorAll("input[type=checkbox]:checked").forEach((box) => {
    if (box.name !== "durch" && shown(box)) parts.push(box.nextElementSibling.textContent.trim());
  });
  const kontra = form.querySelector("input[name=doublings]:checked");
  if (kontra && kontra.value !== "0") parts.push(checkedLabel(form, "doublings"));
  form.querySelectorAll(".bonus-side select").forEach((select) => {
    if (!select.value) return;
    const name = select.closest("label").querySelector(".visually-hidden").textContent.trim();
    parts.push(name + ": " + select.options[select.selectedIndex].text);
  });
  return parts.join(", ");
}
