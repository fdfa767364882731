// Pieces every board uses: a seat list, a section, "whose turn", and score series for the chart.

import { h, words } from "../dom.js";
import { disputeWords } from "../history.js";
import { filled, t } from "../i18n.js";

// A colour and a colour-value card in words live with the dispute sentences that say them too.
export { colourCard, colourWord } from "../history.js";

// The games' phases in words (the state keeps the machine name). A game whose phase of the same
// name means something else gives its own words to phase() (Hat Trick's "reveal").
const PHASES = {
  start_round: t("between rounds"),
  round_start: t("between rounds"),
  choose_trump: t("choosing trump"),
  bidding: t("bidding"),
  playing: t("playing"),
  play: t("playing"),
  distributing: t("handing out the trick"),
  resolving: t("resolving the trick"),
  favourites: t("revealing favourite hats"),
  choose: t("choosing"),
  swap: t("swapping"),
  perform: t("performing"),
  refill: t("turning the next trick"),
  reveal: t("revealing everything"),
  scored: t("scored"),
  finished: t("finished"),
};

/** A phase's machine name in words: the game's own word for it (`own`) first, then the shared one. */
export function phaseWords(id, own = {}) {
  return own[id] || PHASES[id] || String(id || "").replace(/_/g, " ");
}

/**
 * The sentence a table gives for a machine code (an event type, a reason), filled from `values`;
 * null when the table has none. The table's sentences are marked with t("…"), placeholders open.
 */
export function sentenceFor(sentences, code, values) {
  return Object.hasOwn(sentences, code) ? filled(sentences[code], values) : null;
}

/** A titled part of a board. */
export function part(title, ...children) {
  return h("section", { class: "part" }, h("h3", {}, title), ...children);
}

/** The phase and who acts next, in words: "bidding · ann to act", "finished". `own`: the game's
 * words for phases it names differently ({phase: t("…")}). */
export function phase(state, own) {
  if (state.finished) return t("finished");
  const who = state.to_act || [];
  const now = phaseWords(state.phase, own);
  return who.length ? t("{phase} · {players} to act", { phase: now, players: words(who) }) : now;
}

/** A player's name, marked when it is their turn. */
export function name(player, state) {
  const acting = (state.to_act || []).includes(player) && !state.finished;
  return h("span", { class: acting ? "who acting" : "who" }, player, acting ? h("span", { class: "sr" }, t(" (to act)")) : null);
}

/** A row of facts: [["Round", "3 of 20"], …]. */
export function facts(pairs) {
  return h(
    "dl",
    { class: "facts" },
    pairs.filter(Boolean).map(([term, value]) => h("div", {}, h("dt", {}, term), h("dd", {}, value))),
  );
}

/** The disputes a state holds at this step, if any. */
export function disputes(state) {
  const list = state.disputes || [];
  if (!list.length) return null;
  return part(t("Disputes"), h("ul", { class: "disputes" }, list.map((d) => h("li", {}, disputeWords(d)))));
}

/**
 * Chart points over steps: one at the first frame, then one wherever a value changed.
 * `valueOf(state)` gives {series: number}.
 */
export function overSteps(frames, valueOf) {
  const points = [];
  let last = null;
  for (const frame of frames) {
    const values = valueOf(frame.state);
    if (!values) continue;
    const key = JSON.stringify(values);
    if (key !== last) points.push({ x: frame.step, step: frame.step, values });
    last = key;
  }
  if (frames.length && points.length && points[points.length - 1].step !== frames[frames.length - 1].step) {
    const end = frames[frames.length - 1];
    points.push({ x: end.step, step: end.step, values: points[points.length - 1].values });
  }
  return points;
}
