// Drawing the viewer from its state: the header, the board at the step shown, the step's
// sentence, the controls, the step list and the score chart. Nothing here fetches or decides.

import { drawChart, legend } from "./chart.js";
import { fact, h, number, put, stamp, words } from "./dom.js";
import { actorWords, disputeWords, sentence } from "./history.js";
import { t } from "./i18n.js";
import { appendLog, markCurrent, renderLog } from "./log.js";
import { boardOf } from "./boards/registry.js";
import { V, effective, frameAt, lastLogged, latest, navigable } from "./state.js";

const $ = (id) => document.getElementById(id);

/** The board module of the match's game. */
export function game() {
  return boardOf(V.match.game);
}

/** Each player's name, linking to their other matches: "ann, bob and cy". */
function playerLinks(players) {
  return players.flatMap((p, i) => [
    i === 0 ? "" : i === players.length - 1 ? t(" and ") : t(", "),
    h("a", { href: `/?player=${encodeURIComponent(p)}`, title: t("{player}'s matches", { player: p }) }, p),
  ]);
}

/** The match's facts above the board, and the page's title. */
export function header() {
  const m = V.match;
  document.title = `${V.title || m.game}: ${words(m.players)} · tabletape`;
  if (!$("match-facts")) return; // an embed shows no header
  const status = m.finished ? t("finished") : t("in progress");
  put(
    $("match-facts"),
    fact(t("Game"), V.title || m.game),
    fact(t("Players"), playerLinks(m.players)),
    fact(t("Status"), h("span", { class: `status ${m.finished ? "done" : "playing"}` }, status)),
    m.finished ? fact(t("Winners"), words(m.winners || []) || t("nobody (a draw)")) : [],
    fact(t("Steps"), number(Math.max(lastLogged(), m.version))),
    fact(t("Created"), stamp(m.created_at)),
    m.timezone ? fact(t("Time zone"), m.timezone) : [],
    m.location ? fact(t("Location"), m.location) : [],
    fact("JSON", h("a", { href: `/v1/matches/${encodeURIComponent(V.id)}` }, t("the match in the API"))),
  );
  const disputes = m.disputes || [];
  put(
    $("disputes"),
    disputes.length
      ? h("div", { class: "notice", role: "note" }, h("strong", {}, t("Disputes: ")), h("ul", {}, disputes.map((d) => h("li", {}, disputeWords(d)))))
      : [],
  );
  for (const id of ["download-bgstats", "open-bgstats"]) $(id).hidden = !m.finished;
}

function drawBoard(frame) {
  put($("board"), game().board(frame.state, { frames: V.frames, step: frame.step }));
  put($("step-sentence"), h("strong", {}, frame.by || actorWords(frame.actor)), ": ", sentence(game(), frame.event, frame.state), frame.undone ? t(" (undone)") : "");
}

/** The score chart over the effective steps, with the step shown marked. */
export function drawScore() {
  const own = game();
  if (!own.chart) return put($("chart"), h("p", { class: "muted" }, t("No chart for this game.")));
  const spec = own.chart(effective(), V.scores);
  const keys = legend(spec, V.step, V.match.players).map((k) =>
    h("li", {}, h("span", { class: "swatch", style: `background:${k.colour}` }), `${k.name}: ${k.value ?? "—"}`),
  );
  put($("chart"), drawChart(spec, V.step, V.match.players, $("chart").clientWidth || 640), h("ul", { class: "legend" }, keys));
}

/** The score sheet: the game's own, drawn from the scoreboard (and the logged events' figures). */
export function drawSheet() {
  if (!$("sheet")) return;
  const own = game();
  const drawn = own.sheet && V.scores ? own.sheet(V.scores, effective()) : null;
  put($("sheet"), drawn || h("p", { class: "muted" }, V.scores ? t("No score sheet for this game.") : t("The scoreboard could not be read.")));
}

/** The "jump to" list: the game's rounds and tricks, grouped, the one at or before the step chosen. */
export function drawJumps() {
  if (!$("jump")) return;
  const own = game();
  const list = own.chapters ? own.chapters(effective()) : [];
  const select = $("jump");
  select.closest(".jump").hidden = !list.length;
  const groups = [];
  for (const c of list) {
    if (!groups.length || groups[groups.length - 1].label !== c.group) groups.push({ label: c.group, items: [] });
    groups[groups.length - 1].items.push(c);
  }
  put(
    select,
    h("option", { value: "" }, t("a round or trick…")),
    groups.map((g) => h("optgroup", { label: g.label }, g.items.map((c) => h("option", { value: c.step }, t("{label} (step {step})", { label: c.label, step: c.step }))))),
  );
  markJump();
}

function markJump() {
  const select = $("jump");
  if (!select) return;
  let chosen = "";
  for (const option of select.querySelectorAll("option[value]:not([value=''])")) if (Number(option.value) <= V.step) chosen = option.value;
  select.value = chosen;
}

/** The buttons and slider, set to the step shown. */
export function controls() {
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
export function show(step, how = "push") {
  const frame = frameAt(step) || frameAt(latest());
  if (!frame) return;
  V.step = frame.step;
  const el = $("step");
  el.dataset.step = String(V.step);
  el.textContent = String(V.step);
  if (how !== "none") {
    const url = new URL(window.location.href);
    if (V.embedded) url.hash = `step=${V.step}`; // an iframe keeps its step in the fragment
    else url.searchParams.set("step", String(V.step));
    if (V.raw) url.searchParams.set("raw", "1");
    else url.searchParams.delete("raw");
    // In an iframe every move replaces the entry: the host page's back button stays its own.
    const how_ = V.embedded ? "replace" : how;
    if (url.href !== window.location.href) history[how_ === "push" ? "pushState" : "replaceState"]({ step: V.step }, "", url);
    if ($("full")) $("full").href = `/matches/${encodeURIComponent(V.id)}?step=${V.step}`;
  }
  drawBoard(frame);
  controls();
  markJump();
  if ($("events")) markCurrent($("events"), V.step);
  drawScore();
}

/** The whole step list again (after raw mode changes or a correction). */
export function relist() {
  if (!$("events")) return;
  renderLog($("events"), game(), V.frames, V.raw, (step) => show(step));
  markCurrent($("events"), V.step);
  drawJumps();
}

/** One step more at the end of the list, and the undone marks brought up to date. */
export function listed(frame) {
  if (!$("events")) return;
  appendLog($("events"), game(), frame, V.raw, (step) => show(step));
  drawJumps();
  for (const li of $("events").children) li.classList.toggle("undone", Boolean(frameAt(Number(li.dataset.step))?.undone));
}
