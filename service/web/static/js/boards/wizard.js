// Wizard: trump, bids, tricks won, the trick on the table, and the hands when they were recorded.

import { h, table, words } from "../dom.js";
import { perPlayer, suitCard } from "../history.js";
import { LOCALE, t } from "../i18n.js";
import { disputes, facts, name, part, phase } from "./common.js";

const SUITS = { S: ["♠", t("spades")], H: ["♥", t("hearts")], D: ["♦", t("diamonds")], C: ["♣", t("clubs")] };

// How the bids are made (options.bidding), in words.
const BIDDING = { clockwise: t("clockwise"), secret: t("secret"), simultaneous: t("simultaneous") };

/** A card as the table says it: "A♥", "Wizard", "Jester". */
export function cardWords(card) {
  if (!card) return t("none");
  const text = String(card);
  // English says "Wizard" for the card as for the game; the catalogs name the card apart.
  if (/^wizard$/i.test(text)) return LOCALE === "en" ? "Wizard" : t("Wizard card");
  if (/^jester$/i.test(text)) return LOCALE === "en" ? "Jester" : t("Jester card");
  return suitCard(text);
}

function card(code) {
  const text = String(code || "");
  const suit = text.slice(-1).toUpperCase();
  const kind = /^wizard$/i.test(text) ? "wizard" : /^jester$/i.test(text) ? "jester" : `suit-${suit}`;
  return h("span", { class: `card ${kind}`, title: code }, cardWords(code));
}

function trumpWords(state) {
  if (state.trump === "dealer_chooses") return t("the dealer chooses");
  if (state.trump === "none") return t("no trump");
  if (!state.trump) return "—";
  const suit = SUITS[state.trump];
  return suit ? `${suit[0]} ${suit[1]}` : state.trump;
}

function players(state) {
  const bids = state.bids || {};
  const rows = state.players.map((p) => [
    h("span", {}, name(p, state), p === state.dealer ? h("span", { class: "tag" }, t("dealer")) : null),
    p in bids ? String(bids[p]) : (state.have_bid || []).includes(p) ? t("hidden") : "—",
    String((state.tricks || {})[p] ?? 0),
    String((state.totals || {})[p] ?? 0),
  ]);
  return table(t("Players in seat order"), [t("Player"), t("Bid"), t("Tricks won"), t("Total")], rows);
}

function trick(state) {
  const plays = state.trick || [];
  if (!plays.length) return lastTrick(state);
  return h(
    "ol",
    { class: "trick" },
    plays.map((play) => h("li", {}, card(play.card), h("span", { class: "by" }, play.player))),
  );
}

// Between tricks the table is empty; the trick just taken is still worth seeing.
function lastTrick(state) {
  const played = state.played || [];
  if (!played.length) return h("p", { class: "muted" }, t("No card on the table."));
  const number = played[played.length - 1].trick;
  const cards = played.filter((play) => play.trick === number);
  return h(
    "div",
    {},
    h("p", { class: "muted" }, t("No card on the table. Trick {number} was:", { number })),
    h("ol", { class: "trick done" }, cards.map((play) => h("li", {}, card(play.card), h("span", { class: "by" }, play.player)))),
  );
}

// A trick is on the table only while cards are played; a round recorded by its scores alone
// has none, and a round over shows the trick just taken without a number past its last.
function table_(state) {
  const roundOver = !(state.trick || []).length && state.trick_number > state.round; // its last trick just won
  if (state.phase === "playing" && !roundOver) return part(t("Trick {number} of {round} on the table", { number: state.trick_number, round: state.round }), trick(state));
  if ((state.played || []).length) return part(t("The table"), lastTrick(state));
  return null;
}

function hands(state) {
  const known = Object.entries(state.hands || {}).filter(([, cards]) => cards.length);
  if (!known.length) return null;
  return part(
    t("Hands (as recorded)"),
    h(
      "ul",
      { class: "hands" },
      known.map(([p, cards]) =>
        h("li", {}, h("span", { class: "who" }, p), h("span", { class: "cards" }, cards.includes(null) ? `${cards.length} cards` : cards.map(card))),
      ),
    ),
  );
}

/** The board after one step. */
export function board(state) {
  return h(
    "div",
    { class: "wizard" },
    facts([
      [t("Round"), t("{round} of {rounds}", { round: state.round, rounds: state.rounds_total })],
      [t("Trump"), h("span", {}, state.trump_card ? card(state.trump_card) : null, " ", trumpWords(state))],
      [t("Bidding"), BIDDING[state.bidding] || state.bidding],
      [t("Phase"), phase(state)],
      state.finished ? [t("Winners"), words(state.winners || []) || t("nobody")] : null,
    ]),
    players(state),
    table_(state),
    hands(state),
    disputes(state),
  );
}

/** A sentence for each of Wizard's events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "RoundStarted":
      return d.trump_card
        ? t("Round {round}: {dealer} deals, the trump card is {card}", { round: d.round, dealer: d.dealer, card: cardWords(d.trump_card) })
        : t("Round {round}: {dealer} deals, no trump card is turned", { round: d.round, dealer: d.dealer });
    case "TrumpChosen":
      return t("Trump chosen: {suit}", { suit: SUITS[d.suit]?.[1] || d.suit });
    case "BidPlaced":
      return d.hidden || d.tricks === null
        ? t("{player} bids (hidden until revealed)", { player: d.player })
        : t("{player} bids {tricks}", { player: d.player, tricks: d.tricks });
    case "BidsRevealed":
      return t("Bids revealed: {bids}", { bids: perPlayer(d.bids) });
    case "CardPlayed":
      return t("{player} plays {card}", { player: d.player, card: cardWords(d.card) });
    case "TrickWon": {
      const won = (d.cards || []).find((c) => c.player === d.player);
      return won
        ? t("{player} wins trick {trick} with {card}", { player: d.player, trick: d.trick, card: cardWords(won.card) })
        : t("{player} wins trick {trick}", { player: d.player, trick: d.trick });
    }
    case "RoundScored":
      return t("Round {round} scored: {points}", { round: d.round, points: perPlayer(d.points) });
    case "RoundRecorded":
      return t("Round {round} recorded: bids {bids}; tricks {tricks}", { round: d.round, bids: perPlayer(d.bids), tricks: perPlayer(d.tricks) });
    default:
      return null;
  }
}

function signed(n) {
  return n > 0 ? `+${n}` : String(n);
}

/** Round by round: each player's bid, tricks won, points and running total (from RoundScored). */
export function sheet(scores, frames) {
  const players = frames[0]?.state.players || Object.keys(scores.totals || {});
  const running = Object.fromEntries(frames.filter((f) => f.event.type === "RoundScored").map((f) => [f.event.data.round, f.event.data.totals]));
  const rows = (scores.rounds || []).map((r) => [
    t("Round {number}", { number: r.round }),
    ...players.map((p) =>
      h(
        "span",
        { class: "score-cell" },
        h("strong", {}, signed(r.points[p])),
        h("small", {}, t(" bid {bid} · won {won}", { bid: r.bids[p], won: r.tricks[p] })),
        running[r.round] ? h("span", { class: "running" }, ` = ${running[r.round][p]}`) : null,
      ),
    ),
  ]);
  const total = [t("Total"), ...players.map((p) => h("strong", {}, String(scores.totals[p])))];
  if (!rows.length) return h("p", { class: "muted" }, t("No round is scored yet."));
  return table(t("Round by round"), [t("Round"), ...players], [...rows, total]);
}

/** Totals per player after each scored round. */
export function chart(frames) {
  const points = [];
  if (frames.length) points.push({ x: 0, step: frames[0].step, values: { ...frames[0].state.totals } });
  for (const frame of frames) {
    if (frame.event.type === "RoundScored") {
      points.push({ x: frame.event.data.round, step: frame.step, values: { ...frame.state.totals } });
    }
  }
  return { title: t("Total points"), axis: t("round"), points };
}

/** Each round's start and each trick won, listed under their round. */
export function chapters(frames) {
  const found = [];
  for (const f of frames) {
    const d = f.event.data || {};
    const group = t("Round {number}", { number: f.state.round });
    const its = t("Round {number}", { number: d.round });
    if (f.event.type === "RoundStarted") found.push({ group: its, label: t("Round {number} starts", { number: d.round }), step: f.step });
    if (f.event.type === "RoundRecorded") found.push({ group: its, label: t("Round {number} recorded", { number: d.round }), step: f.step });
    if (f.event.type === "TrickWon") found.push({ group, label: t("Trick {trick} won by {player}", { trick: d.trick, player: d.player }), step: f.step });
  }
  return found;
}
