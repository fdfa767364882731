// The viewer's state: the match, its frames (the raw log, as the replay gives it), the step shown,
// whether the raw log is listed, and the scoreboard. Which steps count is the server's answer
// (each frame's `effective`); nothing here decides it again.

import { boardOf } from "./boards/registry.js";
import { CORRECTIONS } from "./history.js";
import { t } from "./i18n.js";

/** The one state of the page. */
export const V = { id: "", match: null, title: "", frames: [], step: 0, raw: false, scores: null, embedded: false };

/** Mark a frame as the list shows it: `correction` (an undo or redo), `undone` (not effective),
 * and `by`: who sent it for the step that is the action itself, or "the table" for a step the
 * rules derived from it (the action's other events: a trick won, a round scored; and what the
 * game's board lists as `leading`, recorded before the action's own event: Hats' TurnStarted).
 * `before` is the frame logged just before, already marked. */
export function mark(frame, before) {
  const meta = frame.event.meta || {};
  frame.correction = CORRECTIONS.includes(frame.event.type);
  frame.undone = !frame.correction && frame.effective === false;
  const same = !("action" in meta) && meta.action_id && meta.action_id === before?.event.meta?.action_id;
  const taken = Boolean(same && before.ownTaken); // the action's own step came earlier
  const leading = (boardOf(V.match?.game).leading || []).includes(frame.event.type);
  frame.own = !taken && !leading;
  frame.ownTaken = taken || frame.own;
  const derived = Boolean(meta.action_id) && !frame.own;
  frame.by = derived || frame.actor === "table" ? t("the table") : frame.actor;
  return frame;
}

/** The steps that count, as the server last said: no correction, nothing undone. */
export function effective() {
  return V.frames.filter((f) => !f.undone && !f.correction);
}

/** The steps the controls move through: the effective ones, or every step in raw mode. */
export function navigable() {
  return V.raw ? V.frames : effective();
}

/** The frame of a step, if loaded. */
export function frameAt(step) {
  return V.frames.find((f) => f.step === step);
}

/** The latest step the controls reach. */
export function latest() {
  const nav = navigable();
  return nav.length ? nav[nav.length - 1].step : 0;
}

/** The last step of the log loaded so far (corrections included). */
export function lastLogged() {
  return V.frames.length ? V.frames[V.frames.length - 1].step : 0;
}

/** The step a move leads to: "first", "prev", "next" or "last" from the step shown. */
export function stepAfter(where) {
  const nav = navigable();
  if (!nav.length) return V.step;
  if (where === "first") return nav[0].step;
  if (where === "next") return (nav.find((f) => f.step > V.step) || nav[nav.length - 1]).step;
  if (where === "prev") return ([...nav].reverse().find((f) => f.step < V.step) || nav[0]).step;
  return nav[nav.length - 1].step;
}
