// The match viewer: header, the board at a step, step controls (buttons, slider, keys, ?step=N),
// the step list, the score chart, and live steps over the SSE feed. Reads only the public API.

import { allFrames, getJSON, liveUrl } from "./api.js";
import { drawChart, legend } from "./chart.js";
import { h, number, put, words, fact, stamp, useTimeZone } from "./dom.js";
import { t } from "./i18n.js";
import { actorWords, disputeWords, mark, sentence } from "./history.js";
import { appendLog, markCurrent, renderLog } from "./log.js";
import * as hatTrick from "./boards/hat-trick.js";
import * as hats from "./boards/hats.js";
import * as hobbit from "./boards/hobbit.js";
import * as otherHatTrick from "./boards/other-hat-trick.js";
import * as wizard from "./boards/wizard.js";

const GAMES = { wizard, hobbit, hats, "other-hat-trick": otherHatTrick, "hat-trick": hatTrick };
// A game this page does not know yet still shows its view, as the API gives it.
const PLAIN = { board: (state) => h("pre", { class: "plain-view" }, JSON.stringify(state, null, 2)) };

const $ = (id) => document.getElementById(id);
const V = { id: $("viewer").dataset.match, frames: [], step: 0, raw: false, scores: null, title: "" };

/** The steps the controls move through: the effective history, or every step in raw mode. */
function navigable() {
  return V.frames.filter((f) => V.raw || (!f.undone && !f.correction));
}

function frameAt(step) {
  return V.frames.find((f) => f.step === step);
}

function latest() {
  const nav = navigable();
  return nav.length ? nav[nav.length - 1].step : 0;
}

/** Each player's name, linking to their other matches: "ann, bob and cy". */
function playerLinks(players) {
  return players.flatMap((p, i) => [
    i === 0 ? "" : i === players.length - 1 ? t(" and ") : t(", "),
    h("a", { href: `/?player=${encodeURIComponent(p)}`, title: t("{player}'s matches", { player: p }) }, p),
  ]);
}

function header() {
  const m = V.match;
  const status = m.finished ? t("finished") : t("in progress");
  put(
    $("match-facts"),
    fact(t("Game"), V.title || m.game),
    fact(t("Players"), playerLinks(m.players)),
    fact(t("Status"), h("span", { class: `status ${m.finished ? "done" : "playing"}` }, status)),
    m.finished ? fact(t("Winners"), words(m.winners || []) || t("nobody (a draw)")) : [],
    fact(t("Steps"), number(V.frames.length ? V.frames[V.frames.length - 1].step : m.version)),
    fact(t("Created"), stamp(m.created_at)),
    fact("JSON", h("a", { href: `/v1/matches/${encodeURIComponent(V.id)}` }, t("the match in the API"))),
  );
  const disputes = m.disputes || [];
  put(
    $("disputes"),
    disputes.length
      ? h("div", { class: "notice", role: "note" }, h("strong", {}, t("Disputes: ")), h("ul", {}, disputes.map((d) => h("li", {}, disputeWords(d)))))
      : [],
  );
  document.title = `${V.title || m.game}: ${words(m.players)} · tabletape`;
}

function drawBoard(frame) {
  const game = GAMES[V.match.game] || PLAIN;
  const lastLogged = V.frames[V.frames.length - 1].step;
  const extra = { frames: V.frames, step: frame.step, scores: V.scores, latest: V.scores?.version === frame.step && frame.step === lastLogged };
  put($("board"), game.board(frame.state, extra));
  put($("step-sentence"), h("strong", {}, actorWords(frame.actor)), ": ", sentence(game, frame.event), frame.undone ? t(" (undone)") : "");
}

function drawScore() {
  const game = GAMES[V.match.game];
  if (!game?.chart) return put($("chart"), h("p", { class: "muted" }, t("No chart for this game.")));
  const spec = game.chart(V.frames.filter((f) => !f.undone && !f.correction), V.scores);
  const keys = legend(spec, V.step, V.match.players).map((k) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${k.colour}` }), `${k.name}: ${k.value ?? "—"}`),
  );
  put($("chart"), drawChart(spec, V.step, V.match.players, $("chart").clientWidth || 640), h("ul", { class: "legend" }, keys));
}

function controls() {
  const nav = navigable();
  const index = nav.findIndex((f) => f.step >= V.step);
  const slider = $("slider");
  slider.max = String(Math.max(0, nav.length - 1));
  slider.value = String(Math.max(0, index));
  slider.setAttribute("aria-valuetext", t("step {step} of {last}", { step: V.step, last: latest() }));
  $("first").disabled = !nav.length || V.step <= nav[0].step;
  $("prev").disabled = $("first").disabled;
  $("next").disabled = V.step >= latest();
  $("last").disabled = $("next").disabled;
}

/** Show a step: the board, the controls, the list, the chart, and the URL (a link to share). */
function show(step, how = "push") {
  const frame = frameAt(step) || frameAt(latest());
  if (!frame) return;
  V.step = frame.step;
  const el = $("step");
  el.dataset.step = String(V.step);
  el.textContent = String(V.step);
  if (how !== "none") {
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(V.step));
    if (V.raw) url.searchParams.set("raw", "1");
    else url.searchParams.delete("raw");
    if (url.href !== window.location.href) history[how === "push" ? "pushState" : "replaceState"]({ step: V.step }, "", url);
  }
  drawBoard(frame);
  controls();
  markCurrent($("events"), V.step);
  drawScore();
}

function move(where) {
  const nav = navigable();
  if (!nav.length) return;
  if (where === "first") show(nav[0].step);
  if (where === "last") show(latest());
  if (where === "next") show((nav.find((f) => f.step > V.step) || nav[nav.length - 1]).step);
  if (where === "prev") show(([...nav].reverse().find((f) => f.step < V.step) || nav[0]).step);
}

function relist() {
  renderLog($("events"), GAMES[V.match.game] || PLAIN, V.frames, V.raw, (step) => show(step));
  markCurrent($("events"), V.step);
}

const KEYS = { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last" };

function wire() {
  for (const where of ["first", "prev", "next", "last"]) $(where).addEventListener("click", () => move(where));
  $("slider").addEventListener("input", (e) => {
    const nav = navigable();
    show(nav[Number(e.target.value)].step, "replace");
  });
  document.addEventListener("keydown", (e) => {
    const where = KEYS[e.key];
    const typing = e.target.closest?.("input:not([type=range]):not([type=checkbox]), select, textarea");
    if (!where || typing || e.altKey || e.ctrlKey || e.metaKey) return;
    e.preventDefault();
    move(where);
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

function addFrame(frame) {
  const lastLogged = V.frames[V.frames.length - 1].step;
  if (frame.step <= lastLogged) return; // a resumed stream never repeats, but be sure
  const following = V.step === latest();
  V.frames.push(frame);
  mark(V.frames);
  V.match.finished = Boolean(frame.state?.finished);
  if (Array.isArray(frame.state?.disputes)) V.match.disputes = frame.state.disputes;
  if (frame.correction) relist();
  else appendLog($("events"), GAMES[V.match.game] || PLAIN, frame, V.raw, (step) => show(step));
  for (const li of $("events").children) li.classList.toggle("undone", Boolean(frameAt(Number(li.dataset.step))?.undone));
  if (following) show(latest(), "replace");
  else {
    controls();
    drawScore();
  }
  header();
}

function liveBadge(text, kind) {
  const badge = $("live");
  badge.hidden = false;
  badge.textContent = text;
  badge.className = `live ${kind}`;
}

/** Follow an unfinished match: the feed resumes after the last step loaded (Last-Event-ID). */
function follow() {
  if (V.match.finished) return;
  const feed = new EventSource(liveUrl(V.id, V.frames[V.frames.length - 1].step));
  feed.addEventListener("open", () => liveBadge(t("● live"), "on"));
  feed.addEventListener("error", () => liveBadge(t("reconnecting…"), "off"));
  feed.addEventListener("frame", (m) => addFrame(JSON.parse(m.data)));
  feed.addEventListener("end", async () => {
    feed.close();
    liveBadge(t("finished"), "done");
    V.match = await getJSON(`/v1/matches/${encodeURIComponent(V.id)}`);
    V.scores = await getJSON(`/v1/matches/${encodeURIComponent(V.id)}/scores`).catch(() => null);
    header();
    show(V.step, "none");
  });
}

async function start() {
  const base = `/v1/matches/${encodeURIComponent(V.id)}`;
  try {
    V.match = await getJSON(base);
    useTimeZone(V.match.timezone);
    V.title = (await getJSON(`/v1/games/${encodeURIComponent(V.match.game)}`).catch(() => null))?.title || "";
    V.scores = await getJSON(`${base}/scores`).catch(() => null);
    V.frames = await allFrames(V.id, (n, of) => put($("load-status"), t("Loading steps… {count} of {total}", { count: n, total: of })));
  } catch (error) {
    put($("load-status"), error.status === 404
        ? t("There is no match {id}.", { id: V.id })
        : t("The match could not be read: {reason}", { reason: error.message }));
    $("load-status").classList.add("error");
    return;
  }
  mark(V.frames);
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
  follow();
}

start();
