// The match viewer's start: read the match from the public API, wire the controls (buttons,
// slider, keys, ?step=N, back and forward), draw the step asked for, then follow live steps.
// state.js holds what is shown, render.js draws it, live.js follows the feed, boards/ the games.

import { allFrames, getJSON } from "./api.js";
import { put } from "./dom.js";
import { follow, rescore } from "./live.js";
import { drawScore, drawSheet, header, relist, show } from "./render.js";
import { V, frameAt, lastLogged, latest, mark, navigable, stepAfter } from "./state.js";

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
  $("raw").addEventListener("change", (e) => {
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
    $("raw").checked = V.raw;
    relist();
  }
  show(Number(params.get("step")) || latest(), "none");
}

async function start() {
  V.id = $("viewer").dataset.match;
  const base = `/v1/matches/${encodeURIComponent(V.id)}`;
  try {
    V.match = await getJSON(base);
    V.title = (await getJSON(`/v1/games/${encodeURIComponent(V.match.game)}`).catch(() => null))?.title || "";
    V.scores = await getJSON(`${base}/scores`).catch(() => null);
    V.frames = (await allFrames(V.id, (n, of) => put($("load-status"), `Loading steps… ${n} of ${of}`))).map((f, i, all) => mark(f, all[i - 1]));
  } catch (error) {
    put($("load-status"), error.status === 404 ? `There is no match ${V.id}.` : `The match could not be read: ${error.message}`);
    $("load-status").classList.add("error");
    return;
  }
  const params = new URL(window.location.href).searchParams;
  const asked = Number(params.get("step"));
  // A link to an undone step or a correction opens the raw log, where that step is listed.
  V.raw = params.get("raw") === "1" || Boolean(asked && frameAt(asked) && !navigable().some((f) => f.step === asked));
  $("raw").checked = V.raw;
  header();
  $("load-status").hidden = true;
  $("layout").hidden = false;
  wire();
  relist();
  show(asked && frameAt(asked) ? asked : latest(), "replace");
  drawSheet();
  if (V.scores && V.scores.version < lastLogged()) rescore();
  follow();
}

start();
