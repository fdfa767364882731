// Hats: the tea table's spaces, each player's collection and black hats, and the last cookie.

import { h, table, words } from "../dom.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";

function hat(code) {
  const [type, value] = String(code || "").split("-");
  return h("span", { class: `card hat-${type}`, title: code }, `${type} ${value ?? ""}`.trim());
}

function teaTable(state) {
  return h(
    "ol",
    { class: "tea-table", "aria-label": "The tea table, space 1 first" },
    (state.tea_table || []).map((space) =>
      h(
        "li",
        { class: space.counts ? "space counts" : "space" },
        h("span", { class: "space-no" }, `space ${space.space}`),
        space.card ? hat(space.card) : h("span", { class: "muted" }, "empty"),
        h("small", {}, space.counts ? `${space.type} worth ${space.type_value}` : "counts for nothing"),
      ),
    ),
  );
}

/** Collection points as the tea table values them now, plus one per black hat (view data only). */
export function tablePoints(state) {
  const values = state.type_values || {};
  return Object.fromEntries(
    state.players.map((p) => {
      const c = state.collections[p];
      const hats = c.hats.reduce((sum, code) => sum + (values[String(code).split("-")[0]] || 0), 0);
      return [p, hats + c.black_hats];
    }),
  );
}

function collections(state, cookie) {
  const points = tablePoints(state);
  const rows = state.players.map((p) => {
    const c = state.collections[p];
    const hand = state.hands?.[p];
    return [
      h("span", {}, name(p, state), cookie === p ? h("span", { class: "tag cookie" }, "🍪 last cookie") : null),
      h("span", { class: "cards" }, c.hats.length ? c.hats.map(hat) : "—"),
      String(c.black_hats),
      String(points[p]),
      state.favourites?.[p] ? hat(state.favourites[p]) : "—",
      !hand ? "—" : hand.hidden ? `${hand.size} cards` : `${hand.size}${hand.known.length ? ` (known: ${hand.known.join(", ")})` : ""}`,
      String(state.plays?.[p] ?? 0),
    ];
  });
  return table("Collections", ["Player", "Hats", "Black hats", "Points so far", "Favourite", "Hand", "Plays"], rows);
}

/** The board after one step; `extra.scores` is the scoreboard now, shown at the latest step. */
export function board(state, extra) {
  const turn = state.turn;
  const cookie = extra?.latest && extra.scores ? extra.scores.cookie : undefined;
  return h(
    "div",
    { class: "hats" },
    facts([
      ["Phase", phase(state)],
      turn ? ["Turn", `${turn.player}, turn ${turn.number} (round ${turn.round})`] : null,
      ["Draw pile", String(state.draw_pile)],
      ["Discard pile", String(state.discard_pile)],
      state.removed_types?.length ? ["Removed types", words(state.removed_types)] : null,
      state.teams?.length ? ["Teams", state.teams.map((t) => words(t)).join(" vs ")] : null,
      cookie !== undefined ? ["Last cookie", cookie || "nobody (undecided)"] : ["Last cookie", "decided at the end"],
    ]),
    part("The tea table", teaTable(state)),
    collections(state, cookie),
    disputes(state),
  );
}

/** A sentence for each of Hats' events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "TurnStarted":
      return `${d.player}'s turn ${d.turn}`;
    case "HatSwapped":
      return `${d.player} plays ${d.card} onto space ${d.space} and collects ${d.taken}`;
    case "BlackHatMade":
      return `${d.player} collects a black hat${d.card ? ` (${d.card})` : ""}`;
    case "CardRedrawn":
      return `${d.player} discards ${d.discarded || "a card"} and draws ${d.drawn || "a card"}`;
    case "PartnerTraded":
      return `${d.player} trades a card face down with their partner`;
    case "PlayEnded":
      return `Play ends: every player has played ${d.plays} cards`;
    case "FavouriteRevealed":
      return `${d.player} reveals the favourite hat ${d.card}`;
    default:
      return null;
  }
}

/** Points so far per player over the steps; the final scoreboard (favourite, cookie) at the end. */
export function chart(frames, scores) {
  const points = overSteps(frames, (state) => (state.collections ? tablePoints(state) : null));
  const end = frames[frames.length - 1];
  if (end?.state.finished && scores?.finished && scores.version === end.step && points.length) {
    const last = points[points.length - 1];
    const final = { x: end.step, step: end.step, values: { ...scores.totals } };
    if (last.step === end.step) points[points.length - 1] = final;
    else points.push(final);
  }
  return { title: "Points (collection and black hats; favourite and cookie at the end)", axis: "step", points };
}
