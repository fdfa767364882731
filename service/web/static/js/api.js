// The public JSON API, and nothing else: the viewer shows what an open read shows.

import { TAG } from "./i18n.js";

export class ApiError extends Error {
  constructor(status, problem) {
    super(problem?.detail || problem?.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }
}

/** GET a JSON document; problems become ApiError with the API's own words. */
export async function getJSON(url) {
  // The API answers problems in the page's language, not the browser's.
  const answer = await fetch(url, { headers: { Accept: "application/json", "Accept-Language": TAG } });
  const body = await answer.json().catch(() => null);
  if (!answer.ok) throw new ApiError(answer.status, body);
  return body;
}

/** Every frame of a match's raw log (corrections included), following the replay's pages. */
export async function allFrames(matchId, onPage) {
  let url = `/v1/matches/${encodeURIComponent(matchId)}/replay?from=1&limit=1000&raw=true`;
  const frames = [];
  while (url) {
    const page = await getJSON(url);
    frames.push(...page.frames);
    if (onPage) onPage(frames.length, page.version);
    url = page.frames.length ? page.links.next : null;
  }
  return frames;
}

/** The URL of a match's live feed, resuming after a step. */
export function liveUrl(matchId, after) {
  return `/v1/matches/${encodeURIComponent(matchId)}/live?last_event_id=${after}`;
}
