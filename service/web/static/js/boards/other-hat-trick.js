// The Other Hat Trick: the seven places (what is known, what is still possible), the trick pile,
// and the tricks each player performed.

import { h, table, words } from "../dom.js";
import { t } from "../i18n.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";
import { ENDINGS, TRICKS, trickName } from "./names.js";

// Props by the names printed on the cards (the state keeps their ids); tricks: boards/names.js.
const PROPS = { rabbit: t("rabbit"), "other-rabbit": t("other rabbit"), hat: t("hat"), lettuce: t("lettuce"), carrot: t("carrot") };
const prop = (id) => PROPS[id] || id;
/** A prop's name as printed on its card (the id of a prop the catalogs do not know). */
export function propName(id) {
  return prop(id);
}

function place(label, spot) {
  const known = spot.prop;
  return h(
    "li",
    { class: `place ${spot.face_up ? "face-up" : "face-down"}` },
    h("span", { class: "place-name" }, label),
    h("span", { class: `prop${known ? ` prop-${known}` : " unknown"}` }, known ? prop(known) : "?"),
    h(
      "small",
      {},
      spot.face_up ? t("face up (seen at step {step})", { step: spot.seen_at_step }) : t("face down"),
      known ? "" : " · ",
      known ? "" : t("could be {props}", { props: words((spot.possible || []).map(prop), "or") }),
    ),
  );
}

function places(state) {
  const props = state.props || {};
  const items = [];
  for (const p of state.players) {
    (props[p] || []).forEach((spot, i) => {
      const side = i === 0 ? t("left") : t("right");
      items.push(place(`${p} · ${side}`, spot));
    });
  }
  if (props.middle) items.push(place(t("middle"), props.middle));
  return h("ol", { class: "places", "aria-label": t("The seven places") }, items);
}

/** A trick's title: the catalogs' words for a trick they know, else the view's title. */
function titled(state, trick) {
  return TRICKS[trick] || state.titles?.[trick] || trick;
}

function pile(state) {
  const cards = state.pile || [];
  if (!cards.length) return h("p", { class: "muted" }, t("The trick pile is empty."));
  return h(
    "ol",
    { class: "pile" },
    cards.map((trick, i) =>
      h("li", { class: i === cards.length - 1 ? "top" : null }, titled(state, trick), i === cards.length - 1 ? h("span", { class: "tag" }, t("top")) : null),
    ),
  );
}

function performed(state) {
  const rows = state.players.map((p) => [
    name(p, state),
    (state.performed?.[p] || []).map((trick) => titled(state, trick)).join(t(", ")) || "—",
    String(state.totals?.[p] ?? 0),
  ]);
  return table(t("Tricks won"), [t("Player"), t("Performed"), t("Points")], rows);
}

/** The board after one step. */
export function board(state) {
  return h(
    "div",
    { class: "other-hat-trick" },
    facts([
      [t("Phase"), phase(state)],
      state.attempting ? [t("Attempting"), titled(state, state.attempting)] : null,
      [t("Deck"), t("{count} tricks left", { count: state.deck })],
      [t("Possible arrangements"), String(state.arrangements)],
      [t("Other Hat Trick failures"), String(state.other_hat_trick_failures)],
      state.ended_by ? [t("Ended by"), ENDINGS[state.ended_by] || state.ended_by.replace(/_/g, " ")] : null,
    ]),
    part(t("The seven places"), places(state)),
    part(t("The trick pile"), pile(state)),
    performed(state),
    disputes(state),
  );
}

function slot(player, n, self) {
  if (player === "middle" || n === null || n === undefined) return t("the middle prop");
  if (player === self) return n === 0 ? t("their left prop") : t("their right prop");
  return n === 0 ? t("{player}'s left prop", { player }) : t("{player}'s right prop", { player });
}

/** A sentence for each of The Other Hat Trick's events. */
export function sentence(event, state) {
  const d = { ...event.data, trick: event.data?.trick && titled(state, event.data.trick) };
  switch (event.type) {
    case "PropsSwapped":
      return t("{player} swaps {mine} with {theirs} for {trick}", {
        player: d.player,
        mine: slot(d.player, d.slot, d.player),
        theirs: slot(d.with_player, d.with_slot, d.player),
        trick: trickName(d.trick),
      });
    case "TrickTurned":
      return t("{player} turns the trick {trick}", { player: d.player, trick: trickName(d.trick) });
    case "TrickFailed":
      return d.prop
        ? t("{player} fails {trick} (shows: {prop})", { player: d.player, trick: trickName(d.trick), prop: prop(d.prop) })
        : t("{player} fails {trick}", { player: d.player, trick: trickName(d.trick) });
    case "TrickPerformed":
      return t("{player} performs {trick} with {props} (+{points})", {
        player: d.player,
        trick: trickName(d.trick),
        props: words((d.props || []).map(prop)),
        points: d.points,
      });
    case "SleightOfHand":
      return t("{player} performs a sleight of hand", d);
    case "MatchEnded":
      return t("The match ends: {reason}", { reason: ENDINGS[d.reason] || String(d.reason || "").replace(/_/g, " ") });
    case "PropsRevealed":
      return t("Everyone reveals their props");
    default:
      return null;
  }
}

/** Points per player over the steps. */
export function chart(frames) {
  return { title: t("Points"), axis: t("step"), points: overSteps(frames, (state) => state.totals || null) };
}

/** Each player's tricks performed and failed, points, penalties and total (scoreboard and log). */
export function sheet(scores, frames) {
  const names = frames[frames.length - 1]?.state || {};
  const failed = {};
  for (const f of frames) if (f.event.type === "TrickFailed") (failed[f.event.data.player] ||= []).push(titled(names, f.event.data.trick));
  const rows = Object.keys(scores.totals || {}).map((p) => [
    h("span", { class: "who" }, p),
    (scores.tricks?.[p] || []).map((trick) => titled(names, trick)).join(t(", ")) || "—",
    (failed[p] || []).join(t(", ")) || "—",
    String(scores.points?.[p] ?? 0),
    String(scores.penalties?.[p] ?? 0),
    h("strong", {}, String(scores.totals[p])),
  ]);
  const heads = [t("Player"), t("Performed"), t("Failed"), t("Points"), t("Penalty"), t("Total")];
  return table(scores.finished ? t("Final score") : t("Score so far"), heads, rows);
}

/** Each trick turned, and each trick performed or failed. */
export function chapters(frames) {
  const kinds = {
    TrickTurned: (trick, player) => t("{trick} turned ({player})", { trick, player }),
    TrickPerformed: (trick, player) => t("{trick} performed ({player})", { trick, player }),
    TrickFailed: (trick, player) => t("{trick} failed ({player})", { trick, player }),
  };
  const group = t("Tricks");
  return frames
    .filter((f) => f.event.type in kinds)
    .map((f) => ({ group, label: kinds[f.event.type](titled(f.state, f.event.data.trick), f.event.data.player), step: f.step }));
}
