// Live steps: an unfinished match follows its SSE feed, resuming after the last step loaded
// (Last-Event-ID). A correction arriving live asks the replay which steps count now.

import { getJSON, liveUrl, replayUrl } from "./api.js";
import { t } from "./i18n.js";
import { V, frameAt, lastLogged, latest, mark } from "./state.js";
import { controls, drawScore, drawSheet, header, listed, relist, show } from "./render.js";

const $ = (id) => document.getElementById(id);

function badge(text, kind) {
  const el = $("live");
  el.hidden = false;
  el.textContent = text;
  el.className = `live ${kind}`;
}

/** The steps an undo or redo touched, marked again as the replay now says. */
async function recount(frame) {
  const { first, last } = frame.event.data || {};
  if (!first || !last) return;
  const page = await getJSON(replayUrl(V.id, first, last));
  for (const told of page.frames) {
    const known = frameAt(told.step);
    if (known) mark(Object.assign(known, { effective: told.effective }), frameAt(known.step - 1));
  }
}

let rescoring = 0; // the scoreboard is read again once a burst of steps settles

/** Read the scoreboard again shortly, and again while the workers have not reached the last
 * step (a scoreboard is projected after the step is logged). */
export function rescore(tries = 20) {
  clearTimeout(rescoring);
  rescoring = setTimeout(async () => {
    V.scores = await getJSON(`/v1/matches/${encodeURIComponent(V.id)}/scores`).catch(() => V.scores);
    drawSheet();
    if (V.scores && V.scores.version < lastLogged() && tries > 1) rescore(tries - 1);
  }, 250);
}

async function arrived(frame) {
  if (frame.step <= lastLogged()) return; // a resumed stream never repeats, but be sure
  const following = V.step === latest();
  V.frames.push(mark(frame, V.frames[V.frames.length - 1]));
  V.match.finished = Boolean(frame.state?.finished);
  if (Array.isArray(frame.state?.disputes)) V.match.disputes = frame.state.disputes;
  if (frame.correction) {
    await recount(frame);
    relist();
  } else listed(frame);
  if (following) show(latest(), "replace");
  else {
    controls();
    drawScore();
  }
  header();
  rescore();
}

/** Follow an unfinished match until its end. */
export function follow() {
  if (V.match.finished) return;
  const feed = new EventSource(liveUrl(V.id, lastLogged()));
  let queue = Promise.resolve(); // frames are taken in the order they came, corrections included
  feed.addEventListener("open", () => badge(t("● live"), "on"));
  feed.addEventListener("error", () => {
    badge(t("reconnecting…"), "off");
    // A refused feed (503: the server follows as many as it may) is closed for good: open it again later.
    if (feed.readyState === EventSource.CLOSED) setTimeout(follow, 10000);
  });
  feed.addEventListener("frame", (m) => {
    queue = queue.then(() => arrived(JSON.parse(m.data)));
  });
  feed.addEventListener("end", () => {
    feed.close();
    queue = queue.then(async () => {
      badge(t("finished"), "done");
      V.match = await getJSON(`/v1/matches/${encodeURIComponent(V.id)}`);
      V.scores = await getJSON(`/v1/matches/${encodeURIComponent(V.id)}/scores`).catch(() => null);
      header();
      show(V.step, "none");
      drawSheet();
    });
  });
}
