// The match viewer's start: read the match from the public API, wire the controls (buttons,
// slider, keys, ?step=N, back and forward), draw the step asked for, then follow live steps.
// state.js holds what is shown, render.js draws it, live.js follows the feed, boards/ the games.

import { framesBetween, getJSON } from "./api.js";
import { h, put, useTimeZone } from "./dom.js";
import { t } from "./i18n.js";
import { follow, rescore } from "./live.js";
import { openBgStats, share } from "./share.js";
import { drawScore, drawSheet, header, relist, show } from "./render.js";
import { V, frameAt, lastLogged, latest, mark, navigable, stepAfter } from "./state.js";
import { loadBoard } from "./boards/registry.js";

const $ = (id) => document.getElementById(id);
const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

function wire() {
  for (const where of ["first", "prev", "next", "last"]) $(where).addEventListener("click", () => show(stepAfter(where)));
  $("slider").addEventListener("input", (e) => show(navigable()[Number(e.target.value)].step, "replace"));
  document.addEventListener("keydown", (e) => {
    const where = KEYS[e.key];
    const typing = e.target.closest?.("input:not([type=range]):not([type=checkbox]), select, textarea");
    if (!where || typing || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    show(stepAfter(where));
  });
  $("jump")?.addEventListener("change", (e) => {
    if (e.target.value) show(Number(e.target.value));
  });
  $("share")?.addEventListener("click", share);
  $("open-bgstats")?.addEventListener("click", openBgStats);
  $("raw")?.addEventListener("change", (e) => {
    V.raw = e.target.checked;
    relist();
    show(V.step, "replace");
  });
  window.addEventListener("popstate", restore);
  let resized = 0; // the chart is drawn to the page's width: redraw it once a resize settles
  window.addEventListener("resize", () => {
    clearTimeout(resized);
    resized = setTimeout(drawScore, 150);
  });
}

/** Back and forward: show the step (and the list) the URL names. */
function restore() {
  const params = new URL(window.location.href).searchParams;
  if ((params.get("raw") === "1") !== V.raw) {
    V.raw = !V.raw;
    if ($("raw")) $("raw").checked = V.raw;
    relist();
  }
  show(askedStep(new URL(window.location.href)) || latest(), "none");
}

// The steps read first around the one shown: the board is usable before the rest arrives.
const BEFORE = 30;
const AFTER = 20;

/** Mark every frame again, each with the one before it (who is credited needs its neighbour). */
function markAll(frames) {
  return frames.map((f, i) => mark(f, frames[i - 1]));
}

/** The steps to show first: those around the step asked for, else around the newest. */
function spanAround(asked, version) {
  const target = asked >= 1 && asked <= version ? asked : version;
  return [Math.max(1, target - BEFORE), Math.min(version, target + AFTER)];
}

/** The game's title and board, and the steps of `span`, asked for together. */
function firstParts(game, span) {
  const parts = Promise.all([
    getJSON(`/v1/games/${encodeURIComponent(game)}`).catch(() => null),
    framesBetween(V.id, ...span),
    loadBoard(game),
  ]);
  parts.catch(() => {}); // awaited only when its steps are the ones to show
  return parts;
}

/** Read the match, its scoreboard, its game's title and board, and the steps around the one asked
 * for. A page served for a match names its game and newest step, so those are asked for with the
 * match. They are kept only when the match's answer is at that same step: a page served before
 * the match went on (a step, an undo that changes which steps count) asks for them again. */
async function firstLook(asked) {
  const base = `/v1/matches/${encodeURIComponent(V.id)}`;
  const { game: servedGame = "", version: servedVersion = "" } = $("viewer").dataset;
  const servedAt = Number(servedVersion) || 0;
  const served = servedGame && servedAt > 0 ? firstParts(servedGame, spanAround(asked, servedAt)) : null;
  const [match, scores] = await Promise.all([getJSON(base), getJSON(`${base}/scores`).catch(() => null)]);
  useTimeZone(match.timezone);
  const span = spanAround(asked, match.version);
  const current = served && servedGame === match.game && servedAt === match.version;
  const [game, frames] = await (current ? served : firstParts(match.game, span));
  Object.assign(V, { match, scores, title: game?.title || "" });
  V.frames = markAll(frames); // who a step is credited to depends on the game
  return span;
}

/** The steps before and after the first look, then everything drawn again with them. */
async function theRest([first, last]) {
  const status = $("load-status");
  const [before, after] = await Promise.all([
    framesBetween(V.id, 1, first - 1, (n) => put(status, t("Loading steps… {count} of {total}", { count: n, total: first - 1 }))),
    framesBetween(V.id, last + 1, V.match.version),
  ]);
  V.frames = markAll([...before, ...V.frames, ...after]);
  relist();
  show(V.step, "none");
  header();
}

/** The step a link asks for: ?step=N, or #step=N (an embed's). */
function askedStep(url) {
  const hashed = /(?:^#|&)step=(\d+)/.exec(url.hash);
  return Number(url.searchParams.get("step") || (hashed && hashed[1]));
}

async function start() {
  V.id = $("viewer").dataset.match;
  V.embedded = Boolean($("viewer").dataset.embed);
  const params = new URL(window.location.href).searchParams;
  const asked = askedStep(new URL(window.location.href));
  let span;
  try {
    span = await firstLook(asked);
  } catch (error) {
    if (error.status === 404) {
      // Nothing to share or download: the way back to the matches instead.
      document.querySelector(".match-head .actions").hidden = true;
      const back = V.embedded ? null : h("a", { href: "/" }, t("Matches"));
      put($("load-status"), t("There is no match {id}.", { id: V.id }), back ? " " : null, back);
    } else put($("load-status"), t("The match could not be read: {reason}", { reason: error.message }));
    $("load-status").classList.add("error");
    return;
  }
  // A link to an undone step or a correction opens the raw log, where that step is listed.
  V.raw = params.get("raw") === "1" || Boolean(asked && frameAt(asked) && !navigable().some((f) => f.step === asked));
  if ($("raw")) $("raw").checked = V.raw;
  header();
  if (span[0] > 1 || span[1] < V.match.version) put($("load-status"), t("Loading the other steps…"));
  else $("load-status").hidden = true;
  $("layout").hidden = false;
  wire();
  relist();
  show(asked && frameAt(asked) ? asked : latest(), "replace");
  performance.mark("tabletape:usable");
  const done = await theRest(span).then(
    () => true,
    (error) => put($("load-status"), t("Some steps could not be read: {reason}", { reason: error.message })) && false,
  );
  if (done) $("load-status").hidden = true;
  drawSheet();
  if (V.scores && V.scores.version < lastLogged()) rescore();
  $("viewer").dataset.loaded = "true";
  follow();
}

start();
