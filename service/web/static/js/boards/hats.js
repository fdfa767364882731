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

/** Each player's points now, as the API's view counts them ({player: total}). */
function totals(state) {
  return Object.fromEntries(Object.entries(state.points || {}).map(([p, row]) => [p, row.total]));
}

/** Who takes the last cookie, once the match is over (the view's own cookie points say). */
function cookieHolder(state) {
  if (!state.finished) return undefined;
  const holder = Object.entries(state.points || {}).find(([, row]) => row.cookie > 0);
  return holder ? holder[0] : null;
}

function collections(state, cookie) {
  const points = totals(state);
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
  return table("Collections", ["Player", "Hats", "Black hats", "Points", "Favourite", "Hand", "Plays"], rows);
}

/** The board after one step. */
export function board(state) {
  const turn = state.turn;
  const cookie = cookieHolder(state);
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

/** Points per player over the steps, as the view counts them at each step. */
export function chart(frames) {
  return { title: "Points (as they would count if the match ended there)", axis: "step", points: overSteps(frames, (state) => (state.points ? totals(state) : null)) };
}

/** The final breakdown: every category per player, and per team, from the scoreboard. */
export function sheet(scores) {
  const rows = Object.entries(scores.categories || {}).map(([p, c]) => [
    h("span", { class: "who" }, p, scores.cookie === p ? h("span", { class: "tag cookie" }, "🍪") : null),
    String(c.collection),
    String(c.black_hats),
    String(c.favourite),
    String(c.cookie),
    h("strong", {}, String(c.total)),
  ]);
  const teams = (scores.teams || []).map((t) => [words(t.players), String(t.black_hats), h("strong", {}, String(t.total))]);
  const decided = { total: "the highest total", black_hats: "the most black hats", cookie: "the last cookie", shared: "nothing: the win is shared" };
  return h(
    "div",
    {},
    table(scores.finished ? "Final score" : "Score if the match ended now", ["Player", "Collection", "Black hats", "Favourite", "Cookie", "Total"], rows),
    teams.length ? table("Teams", ["Team", "Black hats", "Total"], teams) : null,
    scores.finished && scores.decided_by ? h("p", {}, `Decided by ${decided[scores.decided_by] || scores.decided_by}.`) : null,
  );
}

/** Each turn's start, listed under its round. */
export function chapters(frames) {
  return frames
    .filter((f) => f.event.type === "TurnStarted")
    .map((f) => ({ group: `Round ${f.state.turn?.round ?? "?"}`, label: `Turn ${f.event.data.turn}: ${f.event.data.player}`, step: f.step }));
}
