/* Haferl: the page's words, translated by the server, with %(name)s placeholders to fill
 * here (the same placeholders as gettext's on the server). The one place that fills them. */

/** `text` with each %(name)s replaced by values[name]; one not given stays as it is. */
export function fill(text, values = {}) {
  return (text || "").replace(/%\((\w+)\)s/g, (all, key) =>
    Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all);
}

/** The words of `element`'s attribute `name`, filled. */
export function said(element, name, values = {}) {
  return fill(element.getAttribute(name), values);
}
