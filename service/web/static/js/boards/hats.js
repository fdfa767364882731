// Hats: the tea table's spaces, each player's collection and black hats, and the last cookie.

import { h, table, words } from "../dom.js";
import { t } from "../i18n.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";

function hat(code) {
  const [type, value] = String(code || "").split("-");
  return h("span", { class: `card hat-${type}`, title: code }, `${type} ${value ?? ""}`.trim());
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
        h("small", {}, space.counts ? t("{type} worth {value}", { type: space.type, value: space.type_value }) : t("counts for nothing")),
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
      h("span", {}, name(p, state), cookie === p ? h("span", { class: "tag cookie" }, t("🍪 last cookie")) : null),
      h("span", { class: "cards" }, c.hats.length ? c.hats.map(hat) : "—"),
      String(c.black_hats),
      String(points[p]),
      state.favourites?.[p] ? hat(state.favourites[p]) : "—",
      hand ? (hand.known.length ? t("{size} (known: {cards})", { size: hand.size, cards: hand.known.join(t(", ")) }) : String(hand.size)) : "—",
      String(state.plays?.[p] ?? 0),
    ];
  });
  const heads = [t("Player"), t("Hats"), t("Black hats"), t("Points so far"), t("Favourite"), t("Hand"), t("Plays")];
  return table(t("Collections"), heads, rows);
}

/** The board after one step; `extra.scores` is the scoreboard now, shown at the latest step. */
export function board(state, extra) {
  const turn = state.turn;
  const cookie = extra?.latest && extra.scores ? extra.scores.cookie : undefined;
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

/** A sentence for each of Hats' events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "TurnStarted":
      return t("{player}'s turn {turn}", { player: d.player, turn: d.turn });
    case "HatSwapped":
      return t("{player} plays {card} onto space {space} and collects {taken}", d);
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
    case "PartnerTraded":
      return t("{player} trades a card face down with their partner", d);
    case "PlayEnded":
      return t("Play ends: every player has played {plays} cards", d);
    case "FavouriteRevealed":
      return t("{player} reveals the favourite hat {card}", d);
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
  return { title: t("Points (collection and black hats; favourite and cookie at the end)"), axis: t("step"), points };
}
