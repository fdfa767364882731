// Wizard's cards and choices in words: "7H" shows as 7♥ (the viewer's notation) and is spoken
// "7 of hearts" (红桃7, ハートの7).

import { cardWords } from "../../boards/wizard.js";
import { t, tn } from "../../i18n.js";

const SUITS = { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") };
const RANKS = { J: t("jack"), Q: t("queen"), K: t("king"), A: t("ace") };

/** "7H" -> "7 of hearts", "wizard" -> "a Wizard". */
export function spokenCard(card) {
  const text = String(card);
  if (/^wizard$/i.test(text)) return t("a Wizard");
  if (/^jester$/i.test(text)) return t("a Jester");
  const suit = SUITS[text.slice(-1).toUpperCase()];
  const rank = text.slice(0, -1).toUpperCase();
  return suit ? t("{rank} of {suit}", { rank: RANKS[rank] || rank, suit }) : text;
}

/** What each action type is called. */
export const actions = {
  start_round: t("start the round"),
  choose_trump: t("choose trump"),
  bid: t("bid"),
  play: t("play a card"),
  record_round: t("record a whole round"),
};

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "card" || last === "trump_card" || field.startsWith("hands.")) {
    if (v === null) return { text: t("none"), spoken: t("no card turned") };
    return { text: cardWords(v), spoken: spokenCard(v), tone: /[HD]$/i.test(String(v)) ? "red" : null };
  }
  if (last === "suit") return { text: `${cardWords(`2${v}`).slice(1)} ${SUITS[v] || v}`, spoken: SUITS[v] || v };
  if (field.startsWith("bids.") || last === "tricks") return { text: String(v), spoken: tn("{count} trick", "{count} tricks", v) };
  return null;
}
