// Building the page from API data. Every text goes in through textContent or an attribute,
// never innerHTML: player names and other strings come from whoever recorded the match.

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

/** "a, b and c" (or "a, b or c"). */
export function words(list, last = "and") {
  const items = list.map(String);
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} ${last} ${items[items.length - 1]}`;
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

/** The time of day of an ISO timestamp, in the reader's own zone. */
export function clock(ts) {
  const when = new Date(ts);
  if (Number.isNaN(when.getTime())) return String(ts || "");
  return when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

/** A date and time of an ISO timestamp or epoch milliseconds. */
export function stamp(value) {
  const when = new Date(typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value);
  if (Number.isNaN(when.getTime())) return "";
  return when.toLocaleString([], { dateStyle: "medium", timeStyle: "short" });
}
