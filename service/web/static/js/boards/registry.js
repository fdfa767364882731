// The board contract: what the viewer asks of each game, and the one place games are listed.
//
// A game's module (boards/<game>.js) exports:
//   board(state, extra) -> Node      required. The table after one step, drawn from the game's
//                                    view (`state`, as GET /v1/matches/{id}/state?at= gives it).
//                                    `extra` = {frames, step}: the frames loaded so far (the raw
//                                    log) and the step shown. Every figure comes from the view.
//   sentence(event, state)           optional. A short sentence (string, or null to leave it to
//                                    the shared words of history.js) for a logged event; `state`
//                                    is the view right after it, for the names it gives.
//   chart(frames, scores) -> spec    optional. The score chart over the effective frames:
//                                    {title, axis: "round"|"step", points: [{x, step, values}]}
//                                    with every value read from the view or the scoreboard.
//   sheet(scores, frames) -> Node    optional. The score sheet, drawn from the scoreboard
//                                    (GET .../scores) and the effective frames' own figures.
//   chapters(frames) -> [{group, label, step}]
//                                    optional. Where rounds and tricks begin or end, for the
//                                    "jump to" list: each a step, its label and the group
//                                    (a round) it is listed under.
//   leading: [event type]            optional. Events the rules record before an action's own
//                                    event (Hats' TurnStarted before a swap): credited to "the
//                                    table", and the action's next event to whoever sent it.
// A game missing here still opens: its view is shown as the API gives it (PLAIN).

import { h } from "../dom.js";
import * as hatTrick from "./hat-trick.js";
import * as hats from "./hats.js";
import * as hobbit from "./hobbit.js";
import * as otherHatTrick from "./other-hat-trick.js";
import * as wizard from "./wizard.js";

const GAMES = { wizard, hobbit, hats, "other-hat-trick": otherHatTrick, "hat-trick": hatTrick };

/** The board of a game this page does not know yet: its view, as JSON. */
export const PLAIN = Object.freeze({
  board: (state) => h("pre", { class: "plain-view" }, JSON.stringify(state, null, 2)),
});

/** The board module of a game id (PLAIN for a game without one). */
export function boardOf(gameId) {
  return GAMES[gameId] || PLAIN;
}

/** The ids of the games that have a board of their own. */
export function drawnGames() {
  return Object.keys(GAMES);
}
