// Hats: the tea table's spaces, each player's collection and black hats, and the last cookie.

import { h, table, words } from "../dom.js";
import { t, tn } from "../i18n.js";
import { colourCard, colourWord, disputes, facts, name, overSteps, part, phase, sentenceFor } from "./common.js";
import { DECIDED } from "./names.js";

/** The events the rules record before the action's own: the next player's first action (a swap,
 * a black hat, a redraw or a partner trade) starts their turn first, then is what they did. */
export const leading = ["TurnStarted"];

/** A hat type (its colour) in words. */
export const hatType = colourWord;
/** A hat card in words: its colour and its value ("blue-4" is "blue 4"). */
export const cardWords = colourCard;

/** An event's data with its hat cards in words, for its sentence. */
function cardsSaid(d) {
  const said = { ...d };
  for (const field of ["card", "taken", "discarded", "drawn"]) if (typeof d[field] === "string") said[field] = cardWords(d[field]);
  return said;
}

function hat(code) {
  const [type] = String(code || "").split("-");
  return h("span", { class: `card hat-${type}`, title: code }, cardWords(code));
}

function teaTable(state) {
  return h(
    "ol",
    { class: "tea-table", "aria-label": t("The tea table, space 1 first") },
    (state.tea_table || []).map((space) =>
      h(
        "li",
        { class: space.counts ? "space counts" : "space" },
        h("span", { class: "space-no" }, t("space {space}", { space: space.space })),
        space.card ? hat(space.card) : h("span", { class: "muted" }, t("empty")),
        h("small", {}, space.counts ? t("{type} worth {value}", { type: hatType(space.type), value: space.type_value }) : t("counts for nothing")),
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
      h("span", {}, name(p, state), cookie === p ? h("span", { class: "tag cookie" }, t("🍪 last cookie")) : null),
      h("span", { class: "cards" }, c.hats.length ? c.hats.map(hat) : "—"),
      String(c.black_hats),
      String(points[p]),
      state.favourites?.[p] ? hat(state.favourites[p]) : "—",
      !hand ? "—" : hand.hidden ? tn("{count} card", "{count} cards", hand.size) : hand.known.length ? t("{size} (known: {cards})", { size: hand.size, cards: hand.known.map(cardWords).join(t(", ")) }) : String(hand.size),
      String(state.plays?.[p] ?? 0),
    ];
  });
  const heads = [t("Player"), t("Hat cards"), t("Black hats"), t("Points"), t("Favourite"), t("Hand"), t("Plays")];
  return table(t("Collections"), heads, rows);
}

/** The board after one step. */
export function board(state) {
  const turn = state.turn;
  const cookie = cookieHolder(state);
  return h(
    "div",
    { class: "hats" },
    facts([
      [t("Phase"), phase(state)],
      turn ? [t("Turn"), t("{player}, turn {turn} (round {round})", { player: turn.player, turn: turn.number, round: turn.round })] : null,
      [t("Draw pile"), String(state.draw_pile)],
      [t("Discard pile"), String(state.discard_pile)],
      state.removed_types?.length ? [t("Removed types"), words(state.removed_types)] : null,
      state.teams?.length ? [t("Teams"), state.teams.map((team) => words(team)).join(t(" vs "))] : null,
      cookie !== undefined ? [t("Last cookie"), cookie || t("nobody (undecided)")] : [t("Last cookie"), t("decided at the end")],
    ]),
    part(t("The tea table"), teaTable(state)),
    collections(state, cookie),
    disputes(state),
  );
}

// The events told by their data alone.
const SENTENCES = {
  TurnStarted: t("{player}'s turn {turn}"),
  HatSwapped: t("{player} plays {card} onto space {space} and collects {taken}"),
  PartnerTraded: t("{player} trades a card face down with their partner"),
  PlayEnded: t("Play ends: every player has played {plays} cards"),
  FavouriteRevealed: t("{player} reveals the favourite hat {card}"),
};

/** A sentence for each of Hats' events. */
export function sentence(event) {
  const d = cardsSaid(event.data || {});
  switch (event.type) {
    case "BlackHatMade":
      return d.card
        ? t("{player} collects a black hat ({card})", d)
        : t("{player} collects a black hat", d);
    case "CardRedrawn":
    {
      const unnamed = t("a card");
      return t("{player} discards {discarded} and draws {drawn}", {
        player: d.player,
        discarded: d.discarded || unnamed,
        drawn: d.drawn || unnamed,
      });
    }
    default:
      return sentenceFor(SENTENCES, event.type, d);
  }
}

/** Points per player over the steps, as the view counts them at each step. */
export function chart(frames) {
  return { title: t("Points (as they would count if the match ended there)"), axis: t("step"), points: overSteps(frames, (state) => (state.points ? totals(state) : null)) };
}

/** What decided the winner (`decided_by`), in words. */

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
  const teams = (scores.teams || []).map((team) => [words(team.players), String(team.black_hats), h("strong", {}, String(team.total))]);
  const title = scores.finished ? t("Final score") : t("Score if the match ended now");
  const heads = [t("Player"), t("Collection"), t("Black hats"), t("Favourite"), t("Cookie"), t("Total")];
  const how = DECIDED[scores.decided_by] || scores.decided_by;
  return h(
    "div",
    {},
    table(title, heads, rows),
    teams.length ? table(t("Teams"), [t("Team"), t("Black hats"), t("Total")], teams) : null,
    scores.finished && scores.decided_by ? h("p", {}, t("Decided by {how}.", { how })) : null,
  );
}

/** Each turn's start, listed under its round. */
export function chapters(frames) {
  return frames
    .filter((f) => f.event.type === "TurnStarted")
    .map((f) => ({ group: t("Round {number}", { number: f.state.turn?.round ?? "?" }), label: t("Turn {number}: {player}", { number: f.event.data.turn, player: f.event.data.player }), step: f.step }));
}
