// The Other Hat Trick: the seven places (what is known, what is still possible), the trick pile,
// and the tricks each player performed.

import { h, table, words } from "../dom.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";

function place(label, spot) {
  const known = spot.prop;
  return h(
    "li",
    { class: `place ${spot.face_up ? "face-up" : "face-down"}` },
    h("span", { class: "place-name" }, label),
    h("span", { class: `prop${known ? ` prop-${known}` : " unknown"}` }, known || "?"),
    h(
      "small",
      {},
      spot.face_up ? `face up (seen at step ${spot.seen_at_step})` : "face down",
      known ? "" : ` · could be ${words(spot.possible || [], "or")}`,
    ),
  );
}

function places(state) {
  const props = state.props || {};
  const items = [];
  for (const p of state.players) {
    (props[p] || []).forEach((spot, i) => items.push(place(`${p} · ${i === 0 ? "left" : "right"}`, spot)));
  }
  if (props.middle) items.push(place("middle", props.middle));
  return h("ol", { class: "places", "aria-label": "The seven places" }, items);
}

/** A trick's printed name, as the view gives it. */
function titled(state, trick) {
  return state.titles?.[trick] || trick;
}

function pile(state) {
  const cards = state.pile || [];
  if (!cards.length) return h("p", { class: "muted" }, "The trick pile is empty.");
  return h(
    "ol",
    { class: "pile" },
    cards.map((trick, i) =>
      h("li", { class: i === cards.length - 1 ? "top" : null }, titled(state, trick), i === cards.length - 1 ? h("span", { class: "tag" }, "top") : null),
    ),
  );
}

function performed(state) {
  const rows = state.players.map((p) => [
    name(p, state),
    (state.performed?.[p] || []).map((t) => titled(state, t)).join(", ") || "—",
    String(state.totals?.[p] ?? 0),
  ]);
  return table("Tricks won", ["Player", "Performed", "Points"], rows);
}

/** The board after one step. */
export function board(state) {
  return h(
    "div",
    { class: "other-hat-trick" },
    facts([
      ["Phase", phase(state)],
      state.attempting ? ["Attempting", titled(state, state.attempting)] : null,
      ["Deck", `${state.deck} tricks left`],
      ["Possible arrangements", String(state.arrangements)],
      ["Other Hat Trick failures", String(state.other_hat_trick_failures)],
      state.ended_by ? ["Ended by", state.ended_by.replace(/_/g, " ")] : null,
    ]),
    part("The seven places", places(state)),
    part("The trick pile", pile(state)),
    performed(state),
    disputes(state),
  );
}

function slot(player, n, self) {
  if (player === "middle" || n === null || n === undefined) return "the middle prop";
  return `${player === self ? "their" : `${player}'s`} ${n === 0 ? "left" : "right"} prop`;
}

/** A sentence for each of The Other Hat Trick's events. */
export function sentence(event, state) {
  const d = { ...event.data, trick: event.data?.trick && titled(state, event.data.trick) };
  switch (event.type) {
    case "PropsSwapped":
      return `${d.player} swaps ${slot(d.player, d.slot, d.player)} with ${slot(d.with_player, d.with_slot, d.player)} for ${d.trick}`;
    case "TrickTurned":
      return `${d.player} turns ${d.trick}`;
    case "TrickFailed":
      return `${d.player} fails ${d.trick}${d.prop ? ` (shows: ${d.prop})` : ""}`;
    case "TrickPerformed":
      return `${d.player} performs ${d.trick} with ${words(d.props || [])} (+${d.points})`;
    case "SleightOfHand":
      return `${d.player} performs a sleight of hand`;
    case "MatchEnded":
      return `The match ends: ${String(d.reason || "").replace(/_/g, " ")}`;
    case "PropsRevealed":
      return "Everyone reveals their props";
    default:
      return null;
  }
}

/** Points per player over the steps. */
export function chart(frames) {
  return { title: "Points", axis: "step", points: overSteps(frames, (state) => state.totals || null) };
}

/** Each player's tricks performed and failed, points, penalties and total (scoreboard and log). */
export function sheet(scores, frames) {
  const names = frames[frames.length - 1]?.state || {};
  const failed = {};
  for (const f of frames) if (f.event.type === "TrickFailed") (failed[f.event.data.player] ||= []).push(titled(names, f.event.data.trick));
  const rows = Object.keys(scores.totals || {}).map((p) => [
    h("span", { class: "who" }, p),
    (scores.tricks?.[p] || []).map((t) => titled(names, t)).join(", ") || "—",
    (failed[p] || []).join(", ") || "—",
    String(scores.points?.[p] ?? 0),
    String(scores.penalties?.[p] ?? 0),
    h("strong", {}, String(scores.totals[p])),
  ]);
  return table(scores.finished ? "Final score" : "Score so far", ["Player", "Performed", "Failed", "Points", "Penalty", "Total"], rows);
}

/** Each trick turned, and each trick performed or failed. */
export function chapters(frames) {
  const kinds = { TrickTurned: "turned", TrickPerformed: "performed", TrickFailed: "failed" };
  return frames
    .filter((f) => f.event.type in kinds)
    .map((f) => ({ group: "Tricks", label: `${titled(f.state, f.event.data.trick)} ${kinds[f.event.type]} (${f.event.data.player})`, step: f.step }));
}
