// The one DOM helper the views share: an element with attributes and
// children, so the views read as the structure they build.

/**
 * @param {string} tag
 * @param {Record<string, string | number | boolean | undefined>} [attributes]
 * @param {...(Node | string | null | undefined | false)} children
 * @returns {HTMLElement}
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === "class") node.className = String(value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  for (const child of children) {
    if (child !== null && child !== undefined && child !== false) node.append(child);
  }
  return node;
}

/**
 * An error or finding's place as `file:line`, as the command line prints it.
 * @param {{ file: string, line?: number } | undefined} place
 */
export function placeText(place) {
  if (!place) return "";
  return place.line ? `${place.file}:${place.line}` : place.file;
}

/**
 * A count with thousands separators, `100,000`. Not `toLocaleString`: its
 * first call loads the locale data, which cost tens of milliseconds on the
 * way to the first answer.
 * @param {number} n
 */
export function count(n) {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}
