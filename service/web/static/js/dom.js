// Building the page from API data. Every text goes in through textContent or an attribute,
// never innerHTML: player names and other strings come from whoever recorded the match.

import { TAG, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";

function fill(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.setAttribute("class", value);
    else if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** An HTML element: h("li", {class: "x"}, "text", otherNode). */
export function h(tag, attrs, ...children) {
  return fill(document.createElement(tag), attrs, children);
}

/** An SVG element, the same way. */
export function s(tag, attrs, ...children) {
  return fill(document.createElementNS(SVG, tag), attrs, children);
}

/** Replace a node's children. */
export function put(node, ...children) {
  node.replaceChildren();
  return fill(node, {}, children);
}

/** "a, b and c" (or "a, b or c"), in the page's language. */
export function words(list, last = "and") {
  const items = list.map(String);
  if (items.length <= 1) return items.join("");
  const values = { items: items.slice(0, -1).join(t(", ")), last: items[items.length - 1] };
  return last === "or" ? t("{items} or {last}", values) : t("{items} and {last}", values);
}

/** A definition list row pair. */
export function fact(term, ...value) {
  return h("div", {}, h("dt", {}, term), h("dd", {}, ...value));
}

/** A small table: headers and rows of cells (text or nodes). On a phone each row becomes a card
 * of labelled lines (viewer.css), so every column stays in sight without sideways scrolling. */
export function table(caption, headers, rows) {
  return h(
    "table",
    { class: "grid" },
    caption ? h("caption", {}, caption) : null,
    h("thead", {}, h("tr", {}, headers.map((x) => h("th", { scope: "col" }, x)))),
    h(
      "tbody",
      {},
      rows.map((row) =>
        h("tr", {}, row.map((cell, i) => (i === 0 ? h("th", { scope: "row" }, cell) : h("td", { "data-label": headers[i] }, cell)))),
      ),
    ),
  );
}

// Dates and times are written for the page's language (the CLDR data Babel uses on the server),
// in the match's own time zone when it is known, else the reader's.
let zone;

/** The time zone dates are shown in from now on (the match's, an IANA name). */
export function useTimeZone(name) {
  try {
    new Intl.DateTimeFormat(TAG, { timeZone: name });
    zone = name || undefined;
  } catch {
    zone = undefined;
  }
}

/** The time of day of an ISO timestamp. */
export function clock(ts) {
  const when = new Date(ts);
  if (Number.isNaN(when.getTime())) return String(ts || "");
  return when.toLocaleTimeString(TAG, { hour: "2-digit", minute: "2-digit", second: "2-digit", timeZone: zone });
}

/** A date and time of an ISO timestamp or epoch milliseconds. */
export function stamp(value) {
  const when = new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);
  if (Number.isNaN(when.getTime())) return "";
  return when.toLocaleString(TAG, { dateStyle: "medium", timeStyle: "short", timeZone: zone });
}

/** A number written for the page's language. */
export function number(value) {
  return typeof value === "number" ? value.toLocaleString(TAG) : String(value ?? "");
}
