// The words of the log: a short sentence for each step (the game's own, else shared ones).

import { words } from "./dom.js";

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

/** "ann 3, bob 1". */
export function perPlayer(values) {
  return Object.entries(values || {})
    .map(([name, value]) => `${name} ${value}`)
    .join(", ");
}

/** "step 4" or "steps 4–6". */
function span(d) {
  return d.first === d.last ? `step ${d.first}` : `steps ${d.first}–${d.last}`;
}

function common(event) {
  const d = event.data || {};
  switch (event.type) {
    case "MatchCreated":
      return `The match is set up for ${words(d.players || [])}`;
    case "MatchFinished":
      return d.winners && d.winners.length ? `The match is over: ${words(d.winners)} won` : "The match is over: nobody won";
    case "DisputeRaised":
      return `Dispute: ${d.message || d.code}`;
    case "ActionUndone":
      return `Undo: ${span(d)} taken back`;
    case "ActionRedone":
      return `Redo: ${span(d)} put back`;
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
