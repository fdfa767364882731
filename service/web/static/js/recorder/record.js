// The phone recorder of one match: whose turn it is, the legal choices of GET …/next as taps,
// Undo and Redo that say what they take back, the score sheet, and a queue on this device that
// keeps every action until the server has it (offline included).

import { h, put, words } from "../dom.js";
import { build, entryPanel, entryTitle, fieldWords } from "./choices.js";
import { enqueue, recall, registerWorker, remember, remove, waiting } from "./offline.js";
import { problemWords } from "./problems.js";
import { sheet } from "./sheet.js";
import { discard, flush, reapply } from "./sync.js";
import { handOverLink, takeFromFragment, tokenFor } from "./token.js";

const $ = (id) => document.getElementById(id);
const RETRY_MS = 10000;
const ID = decodeURIComponent(window.location.pathname.split("/")[2] || "");
const R = { token: null, match: null, answer: null, labels: {}, online: navigator.onLine, queue: [] };
const api = (tail = "") => `/v1/matches/${encodeURIComponent(ID)}${tail}`;

/** An Idempotency-Key: random, and made without crypto.randomUUID (absent over plain HTTP). */
function newKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return `rec-${[...bytes].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

// With no network the browser says so (navigator.onLine); asking then would only fail.
const offline = () => Object.assign(new Error("offline"), { status: 0 });

async function getJSON(url) {
  if (!navigator.onLine) throw offline();
  const headers = { Accept: "application/json" };
  if (R.token) headers.Authorization = `Bearer ${R.token}`;
  const answer = await fetch(url, { headers, cache: "no-store" });
  const body = await answer.json().catch(() => null);
  if (!answer.ok) throw Object.assign(new Error(problemWords(answer.status, body)), { status: answer.status });
  return body;
}

function say(text, state) {
  $("status").textContent = text;
  $("status").dataset.state = state;
}

function shown(name, v, entry, spoken) {
  if (Array.isArray(v)) return v.map((x) => shown(name, x, entry, spoken)).join(", ") || "none";
  const said = R.labels.value?.(name, v, entry);
  const plain = v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k} ${x}`).join(" ") : String(v);
  return (spoken ? said?.spoken : said?.text) ?? plain;
}

function describe(entry, chosen) {
  // "bob: play 7 of hearts", but "Start the round: leader ann" where no player acts.
  const many = Object.keys(chosen).length > 1 || !entry.fixed.player;
  const values = Object.entries(chosen).map(([name, v]) => (many ? `${fieldWords(name)} ${shown(name, v, entry, false)}` : shown(name, v, entry, true)));
  const title = entryTitle(entry, R.labels);
  return `${title}${values.length ? `${entry.fixed.player ? "" : ":"} ${values.join(", ")}` : ""}`.replace(/\.+$/, "");
}

// --- drawing ---------------------------------------------------------------------------------

function drawTurn() {
  const a = R.answer;
  const waitingNow = R.queue.length;
  $("queue").textContent = String(waitingNow);
  $("net").textContent = R.online ? "online" : "offline";
  $("net").className = `net ${R.online ? "on" : "off"}`;
  if (!a) return;
  const who = a.finished ? "The match is over." : a.to_act.length ? `${words(a.to_act)} to act` : "Nobody to act";
  $("turn").textContent = waitingNow && !R.online ? `As of step ${a.version}: ${who}` : who;
}

// Offline, the last answer stays; an entry already used by a waiting action is left out.
function offered() {
  const a = R.answer;
  if (!a) return [];
  if (R.online || !R.queue.length) return a.actions;
  const used = R.queue.filter((i) => i.kind === "action" && i.after === a.version).map((i) => `${i.action.type}/${i.action.player ?? ""}`);
  return a.actions.filter((e) => !used.includes(`${e.type}/${e.fixed.player ?? ""}`));
}

function drawChoices() {
  if (!R.token || !R.answer) return put($("choices"));
  const entries = offered();
  const empty = R.answer.finished ? "The match is over: nothing more to record." : R.online ? "Nothing can be recorded now." : "No choice left from the last answer: the choices come back when the network does.";
  put($("choices"), entries.length ? entries.map((e) => entryPanel(e, R.labels, tap)) : h("p", { class: "muted" }, empty));
}

function drawOffline() {
  const note = $("offline");
  note.hidden = R.online;
  if (R.online || !R.answer) return;
  const n = R.queue.length;
  note.textContent = n
    ? `Offline. ${n} action${n === 1 ? "" : "s"} wait on this device and go out in order when the network is back. The choices shown are those tabletape gave at step ${R.answer.version}; it cannot tell what is legal after the waiting actions until it is online, and the rules check each one then.`
    : `Offline. The choices shown were legal at step ${R.answer.version}; what you record now waits on this device until the network is back.`;
}

function drawCorrections() {
  const last = R.queue[R.queue.length - 1];
  const undo = $("undo");
  const redo = $("redo");
  if (last && last.status === "waiting") {
    undo.disabled = false;
    undo.textContent = `Undo: take back “${last.sentence}” (not sent yet)`;
  } else {
    const can = R.answer?.undo?.possible && !R.queue.length && !!R.token;
    undo.disabled = !can;
    undo.textContent = can ? `Undo: ${R.answer.undo.sentence}` : "Undo";
  }
  const canRedo = R.answer?.redo?.possible && !R.queue.length && !!R.token;
  redo.disabled = !canRedo;
  redo.textContent = canRedo ? `Redo: ${R.answer.redo.sentence}` : "Redo";
}

function drawConflict(stopped) {
  const box = $("conflict");
  if (!stopped || !["conflict", "refused"].includes(stopped.kind)) {
    box.hidden = true;
    return;
  }
  const n = R.queue.length;
  const item = stopped.item;
  const buttons = [];
  if (stopped.kind === "conflict") {
    const now = stopped.version ?? R.answer?.version;
    put(box, h("p", {}, `Another device recorded in this match meanwhile: it is at step ${now}, and the ${n} action${n === 1 ? "" : "s"} waiting here expected step ${item.expected_version}. The first is “${item.sentence}”.`));
    buttons.push(h("button", { type: "button", "data-resolve": "reapply", onclick: () => resolve(() => reapply(item, now)) }, `Send ${n === 1 ? "it" : `all ${n}`} again after step ${now}`));
  } else {
    put(box, h("p", {}, `The rules refused a waiting action, “${item.sentence}”: ${problemWords(null, item.problem)}`));
    buttons.push(h("button", { type: "button", "data-resolve": "drop-one", onclick: () => resolve(() => discard(ID, [item.n])) }, n > 1 ? "Discard it and send the rest" : "Discard it"));
  }
  buttons.push(h("button", { type: "button", "data-resolve": "discard", onclick: () => resolve(() => discard(ID, R.queue.map((i) => i.n))) }, `Discard the ${n} waiting action${n === 1 ? "" : "s"}`));
  box.append(h("div", { class: "row" }, buttons));
  box.hidden = false;
}

function draw() {
  if (R.answer) $("recorder").dataset.version = String(R.answer.version);
  drawTurn();
  drawOffline();
  drawChoices();
  drawCorrections();
}

// --- recording -------------------------------------------------------------------------------

async function queueItem(kind, action, sentence) {
  R.queue = await waiting(ID);
  const expected = R.queue.length ? null : R.answer?.version ?? null;
  const item = await enqueue({ match: ID, key: newKey(), kind, action, expected_version: expected, sentence, after: R.answer?.version ?? null });
  R.queue.push(item);
  return item;
}

async function send(kind, action, sentence) {
  $("recorder").dataset.busy = "1";
  $("alert").textContent = "";
  await queueItem(kind, action, sentence);
  if (!R.online) {
    say(`Queued: ${sentence}. ${R.queue.length} waiting.`, "queued");
    draw();
    $("recorder").dataset.busy = "0";
    return;
  }
  say(`Sending: ${sentence}…`, "sending");
  drawTurn();
  await sync(sentence);
}

async function sync(sentence) {
  $("recorder").dataset.busy = "1";
  const done = await flush(ID, R.token);
  R.queue = await waiting(ID);
  const stopped = done.stopped;
  if (stopped?.kind === "offline") {
    R.online = false;
    say(sentence ? `Queued: ${sentence}. ${R.queue.length} waiting.` : `${R.queue.length} waiting.`, "queued");
  } else if (stopped?.kind === "refused" && R.queue.length === 1 && sentence) {
    // Refused as it was tapped: nothing was recorded, and the refusal is said in words.
    await remove(stopped.item.n);
    R.queue = [];
    $("alert").textContent = `Not recorded: ${problemWords(null, stopped.problem)}`;
    say("", "refused");
  } else if (!stopped && done.recorded) {
    say(sentence && done.recorded === 1 ? `Recorded: ${sentence}.` : `All ${done.recorded} waiting actions are recorded.`, "recorded");
  } else if (stopped?.kind === "later") say(`${R.queue.length} waiting: the server is busy; they go out again shortly.`, "queued");
  // What the rules accept but flag (a revoke found from public facts) is said at once.
  const disputes = done.events.filter((e) => e.type === "DisputeRaised").map((e) => e.data?.dispute?.message || e.data?.message || "a dispute");
  if (disputes.length) $("alert").textContent = `Recorded, with a dispute: ${disputes.join(" ")} Undo takes it back.`;
  drawConflict(R.queue.length ? stopped : null);
  await refresh();
}

function tap(entry, chosen) {
  return send("action", build(entry, chosen), describe(entry, chosen));
}

async function undo() {
  const last = R.queue[R.queue.length - 1];
  if (last && last.status === "waiting") {
    await remove(last.n);
    R.queue = await waiting(ID);
    say(`Taken back before it was sent: ${last.sentence}.`, "recorded");
    draw();
    return;
  }
  await send("undo", null, `Undo: ${R.answer.undo.sentence}`);
}

async function resolve(step) {
  $("recorder").dataset.busy = "1";
  await step();
  $("conflict").hidden = true;
  await sync(null);
}

// --- loading ---------------------------------------------------------------------------------

async function refresh() {
  R.queue = await waiting(ID);
  try {
    if (!R.token) throw Object.assign(new Error("no token"), { quiet: true });
    const answer = await getJSON(api("/next"));
    R.online = true;
    R.answer = answer;
    await remember(ID, { next: answer });
  } catch (error) {
    if (error.status) $("alert").textContent = error.message;
    else if (!error.quiet) R.online = false;
  }
  draw();
  $("recorder").dataset.busy = "0";
}

async function loadMatch() {
  const known = await recall(ID);
  try {
    R.match = await getJSON(api());
    await remember(ID, { match: R.match });
  } catch (error) {
    if (error.status) throw error;
    R.match = known?.match;
    R.online = false;
  }
  R.answer = known?.next || null;
  if (!R.match) throw new Error("This match has not been opened on this device before, and the network is not reachable.");
  R.labels = await import(`./labels/${R.match.game}.js`).catch(() => ({}));
  document.title = `Record ${R.match.game} · ${words(R.match.players)} · tabletape`;
  const game = R.match.game.replace(/-/g, " ");
  $("title").textContent = `${game.charAt(0).toUpperCase()}${game.slice(1)}: ${words(R.match.players)}`;
}

async function openSheet() {
  $("sheet").showModal();
  try {
    put($("sheet-body"), h("div", { class: "scroll" }, sheet(await getJSON(api("/scores")), R.match.players)));
  } catch (error) {
    put($("sheet-body"), h("p", {}, error.status ? error.message : "The score sheet needs the network."));
  }
}

function wire() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => send("redo", null, `Redo: ${R.answer.redo.sentence}`));
  $("sheet-open").addEventListener("click", openSheet);
  $("viewer-link").href = `/matches/${encodeURIComponent(ID)}`;
  $("hand-over").addEventListener("click", () => {
    const box = $("hand-over-box");
    box.hidden = !box.hidden;
    $("hand-over").setAttribute("aria-expanded", String(!box.hidden));
    $("hand-over-link").value = handOverLink(ID, R.token);
  });
  $("copy-link").addEventListener("click", () => navigator.clipboard?.writeText($("hand-over-link").value).then(() => say("The link is copied.", "idle")));
  window.addEventListener("online", () => {
    R.online = true;
    sync(null);
  });
  // A send that stopped on a busy server (or a network the browser thought was up) goes again.
  setInterval(() => {
    const head = R.queue[0];
    if (head?.status === "waiting" && navigator.onLine && $("recorder").dataset.busy === "0") sync(null);
  }, RETRY_MS);
  window.addEventListener("offline", () => {
    R.online = false;
    draw();
  });
}

async function start() {
  takeFromFragment(ID);
  R.token = tokenFor(ID);
  $("no-token").hidden = !!R.token;
  $("hand-over").hidden = !R.token;
  wire();
  registerWorker();
  await loadMatch();
  R.queue = await waiting(ID);
  if (R.queue.length && R.online) await sync(null);
  else await refresh();
  if (!R.online && R.queue.length) say(`${R.queue.length} waiting.`, "queued");
}

start().catch((error) => {
  $("recorder").dataset.busy = "0";
  $("turn").textContent = "The match could not be opened.";
  $("alert").textContent = error.message;
});
