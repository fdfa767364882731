// The words of the log: a short sentence for each step (the game's own, else shared ones).

import { words } from "./dom.js";
import { t } from "./i18n.js";

/** The events that take steps back or put them back (they are listed only in the raw log). */
export const CORRECTIONS = ["ActionUndone", "ActionRedone"];

/** "RoundScored" -> "round scored". */
export function typeWords(type) {
  return type.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
}

function summary(data) {
  const parts = [];
  for (const [key, value] of Object.entries(data || {})) {
    if (["string", "number", "boolean"].includes(typeof value)) parts.push(`${key.replace(/_/g, " ")} ${value}`);
    if (parts.length >= 4) break;
  }
  return parts.join(", ");
}

const SUITS = { S: t("spades"), H: t("hearts"), D: t("diamonds"), C: t("clubs") };
const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

// The colours cards are written with (Hats' hat types, The Hobbit's colours), in words.
const COLOURS = { red: t("red"), orange: t("orange"), yellow: t("yellow"), green: t("green"), blue: t("blue"), purple: t("purple"), pink: t("pink") };

/** A colour id in words (the id of a colour the catalogs do not know). */
export function colourWord(id) {
  return COLOURS[id] || id;
}

/** A card written colour-value in words: "blue-4" is "blue 4" in the reader's language. */
export function colourCard(code) {
  const [colour, value] = String(code || "").split("-");
  return `${colourWord(colour)} ${value ?? ""}`.trim();
}

/** A suited card as the table writes it: "7H" is "7♥" (the code itself when it has no suit). */
export function suitCard(code) {
  const text = String(code || "");
  const sign = SUIT_SIGNS[text.slice(-1).toUpperCase()];
  return sign ? `${text.slice(0, -1).toUpperCase()}${sign}` : text;
}

/** A dispute in the page's language: told from its recorded facts, its cards and colours in
 * words (the stored sentence is English and names the cards by id). */
export function disputeWords(d) {
  if (d.code !== "revoke" || !d.player) return d.message || d.code;
  if (d.suit) {
    return t("{player} did not follow {suit} in trick {trick} of round {round}, yet plays {card}: a revoke, or a recording mistake to correct with undo", {
      ...d,
      suit: SUITS[d.suit] || d.suit,
      card: suitCard(d.card),
    });
  }
  return t("{player} plays {card} in round {round} but did not follow {colour} in trick {trick}: a revoke", {
    ...d,
    card: colourCard(d.card),
    colour: colourWord(d.colour),
  });
}

/** Who recorded a step: a player's name, or "the table" (the actor's machine name). */
export function actorWords(actor) {
  return actor === "table" ? t("the table") : actor;
}

/** "ann 3, bob 1". */
export function perPlayer(values) {
  return Object.entries(values || {})
    .map(([name, value]) => `${name} ${value}`)
    .join(t(", "));
}

/** "step 4" or "steps 4–6". */
function common(event) {
  const d = event.data || {};
  switch (event.type) {
    case "MatchCreated":
      return t("The match is set up for {players}", { players: words(d.players || []) });
    case "MatchFinished":
      return d.winners && d.winners.length
        ? t("The match is over: {winners} won", { winners: words(d.winners) })
        : t("The match is over: nobody won");
    case "DisputeRaised":
      return t("Dispute: {message}", { message: disputeWords(d.dispute || d) });
    case "ActionUndone":
      return d.first === d.last
        ? t("Undo: step {first} taken back", { first: d.first })
        : t("Undo: steps {first}–{last} taken back", { first: d.first, last: d.last });
    case "ActionRedone":
      return d.first === d.last
        ? t("Redo: step {first} put back", { first: d.first })
        : t("Redo: steps {first}–{last} put back", { first: d.first, last: d.last });
    default:
      return null;
  }
}

/** A short sentence for a logged event (with the view after it): the game's own words, else a
 * generic one. */
export function sentence(game, event, state) {
  const own = game.sentence ? game.sentence(event, state || {}) : null;
  if (own) return own;
  const shared = common(event);
  if (shared) return shared;
  const said = summary(event.data);
  const head = typeWords(event.type);
  return said ? `${head[0].toUpperCase()}${head.slice(1)}: ${said}` : `${head[0].toUpperCase()}${head.slice(1)}`;
}
