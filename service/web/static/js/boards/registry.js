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
//
// A page imports the board of the game it shows (`loadBoard`), not all five: a spectator's phone
// fetches one game's module. The server names that module in the page (`modulepreload`), so it
// arrives with the page's own.

import { h } from "../dom.js";

const GAMES = {
  wizard: () => import("./wizard.js"),
  hobbit: () => import("./hobbit.js"),
  hats: () => import("./hats.js"),
  "other-hat-trick": () => import("./other-hat-trick.js"),
  "hat-trick": () => import("./hat-trick.js"),
};
const loaded = new Map();

/** The board of a game this page does not know yet: its view, as JSON. */
export const PLAIN = Object.freeze({
  board: (state) => h("pre", { class: "plain-view" }, JSON.stringify(state, null, 2)),
});

/** Import the board module of a game id (PLAIN for a game without one); a module that cannot be
 * fetched fails the promise, and is asked for again next time. */
export async function loadBoard(gameId) {
  if (!loaded.has(gameId)) {
    const load = Object.hasOwn(GAMES, gameId) ? GAMES[gameId] : null;
    loaded.set(gameId, load ? await load() : PLAIN);
  }
  return loaded.get(gameId);
}

/** The board module of a game id once `loadBoard` has imported it (PLAIN before, and for a game
 * without one). */
export function boardOf(gameId) {
  return loaded.get(gameId) || PLAIN;
}
