// Wizard: trump, bids, tricks won, the trick on the table, and the hands when they were recorded.

import { h, table, words } from "../dom.js";
import { perPlayer } from "../history.js";
import { disputes, facts, name, part, phase } from "./common.js";

const SUITS = { S: ["♠", "spades"], H: ["♥", "hearts"], D: ["♦", "diamonds"], C: ["♣", "clubs"] };

/** A card as the table says it: "A♥", "Wizard", "Jester". */
export function cardWords(card) {
  if (!card) return "none";
  const text = String(card);
  if (/^wizard$/i.test(text)) return "Wizard";
  if (/^jester$/i.test(text)) return "Jester";
  const suit = SUITS[text.slice(-1).toUpperCase()];
  return suit ? `${text.slice(0, -1).toUpperCase()}${suit[0]}` : text;
}

function card(code) {
  const text = String(code || "");
  const suit = text.slice(-1).toUpperCase();
  const kind = /^wizard$/i.test(text) ? "wizard" : /^jester$/i.test(text) ? "jester" : `suit-${suit}`;
  return h("span", { class: `card ${kind}`, title: code }, cardWords(code));
}

function trumpWords(state) {
  if (state.trump === "dealer_chooses") return "the dealer chooses";
  if (state.trump === "none") return "no trump";
  if (!state.trump) return "—";
  const suit = SUITS[state.trump];
  return suit ? `${suit[0]} ${suit[1]}` : state.trump;
}

function players(state) {
  const bids = state.bids || {};
  const rows = state.players.map((p) => [
    h("span", {}, name(p, state), p === state.dealer ? h("span", { class: "tag" }, "dealer") : null),
    p in bids ? String(bids[p]) : (state.have_bid || []).includes(p) ? "hidden" : "—",
    String((state.tricks || {})[p] ?? 0),
    String((state.totals || {})[p] ?? 0),
  ]);
  return table("Players in seat order", ["Player", "Bid", "Tricks won", "Total"], rows);
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
  if (!played.length) return h("p", { class: "muted" }, "No card on the table.");
  const number = played[played.length - 1].trick;
  const cards = played.filter((play) => play.trick === number);
  return h(
    "div",
    {},
    h("p", { class: "muted" }, `No card on the table. Trick ${number} was:`),
    h("ol", { class: "trick done" }, cards.map((play) => h("li", {}, card(play.card), h("span", { class: "by" }, play.player)))),
  );
}

// A trick is on the table only while cards are played; a round recorded by its scores alone
// has none, and a round over shows the trick just taken without a number past its last.
function table_(state) {
  const roundOver = !(state.trick || []).length && state.trick_number > state.round; // its last trick just won
  if (state.phase === "playing" && !roundOver) return part(`Trick ${state.trick_number} of ${state.round} on the table`, trick(state));
  if ((state.played || []).length) return part("The table", lastTrick(state));
  return null;
}

function hands(state) {
  const known = Object.entries(state.hands || {}).filter(([, cards]) => cards.length);
  if (!known.length) return null;
  return part(
    "Hands (as recorded)",
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
      ["Round", `${state.round} of ${state.rounds_total}`],
      ["Trump", h("span", {}, state.trump_card ? card(state.trump_card) : null, " ", trumpWords(state))],
      ["Bidding", state.bidding],
      ["Phase", phase(state)],
      state.finished ? ["Winners", words(state.winners || []) || "nobody"] : null,
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
        ? `Round ${d.round}: ${d.dealer} deals, the trump card is ${cardWords(d.trump_card)}`
        : `Round ${d.round}: ${d.dealer} deals, no trump card is turned`;
    case "TrumpChosen":
      return `Trump chosen: ${SUITS[d.suit]?.[1] || d.suit}`;
    case "BidPlaced":
      return d.hidden || d.tricks === null ? `${d.player} bids (hidden until revealed)` : `${d.player} bids ${d.tricks}`;
    case "BidsRevealed":
      return `Bids revealed: ${perPlayer(d.bids)}`;
    case "CardPlayed":
      return `${d.player} plays ${cardWords(d.card)}`;
    case "TrickWon": {
      const won = (d.cards || []).find((c) => c.player === d.player);
      return `${d.player} wins trick ${d.trick}${won ? ` with ${cardWords(won.card)}` : ""}`;
    }
    case "RoundScored":
      return `Round ${d.round} scored: ${perPlayer(d.points)}`;
    case "RoundRecorded":
      return `Round ${d.round} recorded: bids ${perPlayer(d.bids)}; tricks ${perPlayer(d.tricks)}`;
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
    `Round ${r.round}`,
    ...players.map((p) =>
      h(
        "span",
        { class: "score-cell" },
        h("strong", {}, signed(r.points[p])),
        h("small", {}, ` bid ${r.bids[p]} · won ${r.tricks[p]}`),
        running[r.round] ? h("span", { class: "running" }, ` = ${running[r.round][p]}`) : null,
      ),
    ),
  ]);
  const total = ["Total", ...players.map((p) => h("strong", {}, String(scores.totals[p])))];
  if (!rows.length) return h("p", { class: "muted" }, "No round is scored yet.");
  return table("Round by round", ["Round", ...players], [...rows, total]);
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
  return { title: "Total points", axis: "round", points };
}

/** Each round's start and each trick won, listed under their round. */
export function chapters(frames) {
  const found = [];
  for (const f of frames) {
    const d = f.event.data || {};
    const group = `Round ${f.state.round}`;
    if (f.event.type === "RoundStarted") found.push({ group: `Round ${d.round}`, label: `Round ${d.round} starts`, step: f.step });
    if (f.event.type === "RoundRecorded") found.push({ group: `Round ${d.round}`, label: `Round ${d.round} recorded`, step: f.step });
    if (f.event.type === "TrickWon") found.push({ group, label: `Trick ${d.trick} won by ${d.player}`, step: f.step });
  }
  return found;
}
