// Wizard's cards and choices in words: "7H" shows as 7♥ (the viewer's notation) and is spoken
// "7 of hearts".

import { cardWords } from "../../boards/wizard.js";

const SUITS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };
const RANKS = { J: "jack", Q: "queen", K: "king", A: "ace" };

/** "7H" -> "7 of hearts", "wizard" -> "a Wizard". */
export function spokenCard(card) {
  const text = String(card);
  if (/^wizard$/i.test(text)) return "a Wizard";
  if (/^jester$/i.test(text)) return "a Jester";
  const suit = SUITS[text.slice(-1).toUpperCase()];
  const rank = text.slice(0, -1).toUpperCase();
  return suit ? `${RANKS[rank] || rank} of ${suit}` : text;
}

export const actions = { start_round: "start the round", choose_trump: "choose trump", bid: "bid", play: "play a card", record_round: "record a whole round" };

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "card" || last === "trump_card" || field.startsWith("hands.")) {
    if (v === null) return { text: "none", spoken: "no card turned" };
    return { text: cardWords(v), spoken: spokenCard(v), tone: /[HD]$/i.test(String(v)) ? "red" : null };
  }
  if (last === "suit") return { text: `${cardWords(`2${v}`).slice(1)} ${SUITS[v] || v}`, spoken: SUITS[v] || v };
  if (field.startsWith("bids.") || last === "tricks") return { text: String(v), spoken: `${v} trick${v === 1 ? "" : "s"}` };
  return null;
}
