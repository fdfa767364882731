// The step list beside the board: each step's actor, time and sentence; undone steps marked.

import { clock, h, put } from "./dom.js";
import { actorWords, sentence } from "./history.js";

function item(game, frame, raw, onPick) {
  const link = h("a", { href: `?step=${frame.step}`, "data-step": frame.step }, `${frame.step}`);
  link.addEventListener("click", (e) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onPick(frame.step);
  });
  return h(
    "li",
    { "data-step": frame.step, class: classes(frame) },
    link,
    h("span", { class: "actor" }, frame.by || actorWords(frame.actor)),
    h("time", { datetime: frame.ts }, clock(frame.ts)),
    h("span", { class: "said" }, sentence(game, frame.event, frame.state)),
    raw ? h("code", { class: "raw" }, `${frame.event.type} ${JSON.stringify(frame.event.data)}`) : null,
  );
}

function classes(frame) {
  return [frame.undone ? "undone" : "", frame.correction ? "correction" : ""].join(" ").trim() || null;
}

/** The list's items: every step in raw mode, else every step but the corrections. */
export function renderLog(list, game, frames, raw, onPick) {
  put(list, frames.filter((f) => raw || !f.correction).map((f) => item(game, f, raw, onPick)));
}

/** Add one step at the end of the list. */
export function appendLog(list, game, frame, raw, onPick) {
  if (raw || !frame.correction) list.append(item(game, frame, raw, onPick));
}

/** Mark the shown step and keep it in sight inside the list (without scrolling the page). */
export function markCurrent(list, step) {
  for (const old of list.querySelectorAll("li[aria-current]")) old.removeAttribute("aria-current");
  const here = list.querySelector(`li[data-step="${step}"]`);
  if (!here) return;
  here.setAttribute("aria-current", "step");
  const top = here.offsetTop;
  const bottom = top + here.offsetHeight;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
}
