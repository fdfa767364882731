// The public JSON API, and nothing else: the viewer shows what an open read shows.

import { TAG } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

const PAGE = 1000; // the replay's largest page

/** GET a JSON document; problems become ApiError with the API's own words. */
export async function getJSON(url) {
  // The API answers problems in the page's language, not the browser's.
  const answer = await fetch(url, { headers: { Accept: "application/json", "Accept-Language": TAG } });
  const body = await answer.json().catch(() => null);
  if (!answer.ok) throw new ApiError(answer.status, body);
  return body;
}

/** The frames of steps first..last of a match's raw log (corrections included), following the
 * replay's pages; `onPage(loaded)` hears of each page. */
export async function framesBetween(matchId, first, last, onPage) {
  const frames = [];
  let from = first;
  while (from <= last) {
    const page = await getJSON(replayUrl(matchId, from, Math.min(last, from + PAGE - 1)));
    frames.push(...page.frames);
    if (onPage) onPage(frames.length);
    if (!page.frames.length) break;
    from = page.frames[page.frames.length - 1].step + 1;
  }
  return frames;
}

/** The URL of a match's raw replay of steps first..last. */
export function replayUrl(matchId, first, last) {
  return `/v1/matches/${encodeURIComponent(matchId)}/replay?from=${first}&to=${last}&limit=${last - first + 1}&raw=true`;
}

/** The URL of a match's live feed, resuming after a step. */
export function liveUrl(matchId, after) {
  return `/v1/matches/${encodeURIComponent(matchId)}/live?last_event_id=${after}`;
}
