// The phone recorder of one match: whose turn it is, the legal choices of GET …/next as taps,
// Undo and Redo that say what they take back, the score sheet, and a queue on this device that
// keeps every action until the server has it (offline included).

import { h, put, words } from "../dom.js";
import { disputeWords } from "../history.js";
import { TAG, t, tn } from "../i18n.js";
import { build, entryPanel, entryTitle, fieldWords } from "./choices.js";
import { enqueue, recall, registerWorker, remember, remove, waiting } from "./offline.js";
import { problemWords } from "./problems.js";
import { sheet } from "./sheet.js";
import { discard, flush, reapply } from "./sync.js";
import { handOverLink, takeFromFragment, tokenFor } from "./token.js";

const $ = (id) => document.getElementById(id);
const RETRY_MS = 10000;
// While the page is in sight and has nothing to send, it asks `next` this often: another phone at
// the table (a seat's bid, the table's card) moves the match on, and the choices follow.
const WATCH_MS = 5000;
const ID = decodeURIComponent(window.location.pathname.split("/")[2] || "");
// On a player's own phone (/matches/{id}/seat/{player}): that seat's choices and facts only.
const SEAT = document.getElementById("recorder").dataset.seat || "";
// The match's game, when the server named it in the page (its words are then fetched with the
// page's modules); the service worker's copy, which opens any match, names none.
const GAME = document.getElementById("recorder").dataset.game || "";
const SECRET_BIDDING = ["secret", "simultaneous"];
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
  const headers = { Accept: "application/json", "Accept-Language": TAG };
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
  if (Array.isArray(v)) return v.map((x) => shown(name, x, entry, spoken)).join(t(", ")) || t("none");
  const said = R.labels.value?.(name, v, entry);
  const plain = v && typeof v === "object" ? Object.entries(v).map(([k, x]) => `${k} ${x}`).join(" ") : String(v);
  return (spoken ? said?.spoken : said?.text) ?? plain;
}

function describe(entry, chosen) {
  // "bob: play 7 of hearts", but "Start the round: leader ann" where no player acts.
  const many = Object.keys(chosen).length > 1 || !entry.fixed.player;
  // A value whose words name its field ("tea table space 3") is not named twice.
  const named = (name, v) => !Array.isArray(v) && R.labels.value?.(name, v, entry)?.named;
  const values = Object.entries(chosen).map(([name, v]) =>
    !many || named(name, v) ? shown(name, v, entry, true) : `${fieldWords(name)} ${shown(name, v, entry, false)}`,
  );
  const title = entryTitle(entry, R.labels);
  if (!values.length) return title.replace(/\.+$/, "");
  const joined = values.join(t(", "));
  return (entry.fixed.player ? t("{title} {values}", { title, values: joined }) : t("{title}: {values}", { title, values: joined })).replace(/\.+$/, "");
}

// --- drawing ---------------------------------------------------------------------------------

function drawTurn() {
  const a = R.answer;
  const waitingNow = R.queue.length;
  $("queue").textContent = String(waitingNow);
  $("net").textContent = R.online ? t("online") : t("offline");
  $("net").className = `net ${R.online ? "on" : "off"}`;
  if (!a) return;
  const who = a.finished ? t("The match is over.") : a.to_act.length ? t("{players} to act", { players: words(a.to_act) }) : t("Nobody to act");
  $("turn").textContent = waitingNow && !R.online ? t("As of step {step}: {who}", { step: a.version, who }) : who;
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
  // A seat records its own player's moves; what the table records for them (The Hobbit's
  // distribution by the trick's winner) is done on the table's phone.
  const tableRecords = SEAT && R.answer.to_act.includes(SEAT);
  const empty = R.answer.finished
    ? t("The match is over: nothing more to record.")
    : tableRecords && R.online
      ? t("{player} decides now, and the table's phone records it.", { player: SEAT })
      : R.online
      ? t("Nothing can be recorded now.")
      : t("No choice left from the last answer: the choices come back when the network does.");
  put($("choices"), entries.length ? entries.map((e) => entryPanel(e, R.labels, tap)) : h("p", { class: "muted" }, empty));
}

function drawOffline() {
  const note = $("offline");
  note.hidden = R.online;
  if (R.online || !R.answer) return;
  const n = R.queue.length;
  note.textContent = n
    ? tn(
        "Offline. {count} action waits on this device and goes out when the network is back. The choices shown are those tabletape gave at step {step}; it cannot tell what is legal after the waiting action until it is online, and the rules check it then.",
        "Offline. {count} actions wait on this device and go out in order when the network is back. The choices shown are those tabletape gave at step {step}; it cannot tell what is legal after the waiting actions until it is online, and the rules check each one then.",
        n,
        { step: R.answer.version },
      )
    : t("Offline. The choices shown were legal at step {step}; what you record now waits on this device until the network is back.", { step: R.answer.version });
}

/** A bar button's words: cut at three lines on a narrow phone, whole in its title. */
function label(button, text) {
  put(button, h("span", {}, text));
  button.title = text;
}

function drawCorrections() {
  const last = R.queue[R.queue.length - 1];
  const undo = $("undo");
  const redo = $("redo");
  if (last && last.status === "waiting") {
    undo.disabled = false;
    label(undo, t("Undo: take back “{sentence}” (not sent yet)", { sentence: last.sentence }));
  } else {
    const can = R.answer?.undo?.possible && !R.queue.length && !!R.token;
    undo.disabled = !can;
    // What the next Undo takes back, as GET …/next says it in the page's language: the action and
    // what it derived, whichever device recorded it (after an Undo or a Redo, the action now last).
    label(undo, can ? t("Undo: {sentence}", { sentence: R.answer.undo.sentence }) : t("Undo"));
  }
  const canRedo = R.answer?.redo?.possible && !R.queue.length && !!R.token;
  redo.disabled = !canRedo;
  label(redo, canRedo ? t("Redo: {sentence}", { sentence: R.answer.redo.sentence }) : t("Redo"));
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
    const facts = { step: now, expected: item.expected_version, sentence: item.sentence };
    const told = tn(
      "Another device recorded in this match meanwhile: it is at step {step}, and the {count} action waiting here expected step {expected}. It is “{sentence}”.",
      "Another device recorded in this match meanwhile: it is at step {step}, and the {count} actions waiting here expected step {expected}. The first is “{sentence}”.",
      n,
      facts,
    );
    put(box, h("p", {}, told));
    const again = tn("Send it again after step {step}", "Send all {count} again after step {step}", n, { step: now });
    buttons.push(h("button", { type: "button", "data-resolve": "reapply", onclick: () => resolve(() => reapply(item, now)) }, again));
  } else {
    put(box, h("p", {}, t("The rules refused a waiting action, “{sentence}”: {problem}", { sentence: item.sentence, problem: problemWords(null, item.problem) })));
    buttons.push(h("button", { type: "button", "data-resolve": "drop-one", onclick: () => resolve(() => discard(ID, [item.n])) }, n > 1 ? t("Discard it and send the rest") : t("Discard it")));
  }
  buttons.push(h("button", { type: "button", "data-resolve": "discard", onclick: () => resolve(() => discard(ID, R.queue.map((i) => i.n))) }, tn("Discard the {count} waiting action", "Discard the {count} waiting actions", n)));
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
  // A seat records its own player's actions while other phones record theirs (simultaneous bids):
  // the rules judge each against the newest state instead of refusing it for a step it did not see.
  const expected = SEAT || R.queue.length ? null : R.answer?.version ?? null;
  const item = await enqueue({ match: ID, key: newKey(), kind, action, expected_version: expected, sentence, after: R.answer?.version ?? null });
  R.queue.push(item);
  return item;
}

async function send(kind, action, sentence) {
  $("recorder").dataset.busy = "1";
  $("alert").textContent = "";
  await queueItem(kind, action, sentence);
  if (!R.online) {
    say(t("Queued: {sentence}. {count} waiting.", { sentence, count: R.queue.length }), "queued");
    draw();
    $("recorder").dataset.busy = "0";
    return;
  }
  say(t("Sending: {sentence}…", { sentence }), "sending");
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
    const count = R.queue.length;
    say(sentence ? t("Queued: {sentence}. {count} waiting.", { sentence, count }) : t("{count} waiting.", { count }), "queued");
  } else if (stopped?.kind === "refused" && R.queue.length === 1 && sentence) {
    // Refused as it was tapped: nothing was recorded, and the refusal is said in words.
    await remove(stopped.item.n);
    R.queue = [];
    $("alert").textContent = t("Not recorded: {problem}", { problem: problemWords(null, stopped.problem) });
    say("", "refused");
  } else if (!stopped && done.recorded) {
    const all = tn("The {count} waiting action is recorded.", "All {count} waiting actions are recorded.", done.recorded);
    say(sentence && done.recorded === 1 ? t("Recorded: {sentence}.", { sentence }) : all, "recorded");
  } else if (stopped?.kind === "later") say(t("{count} waiting: the server is busy; they go out again shortly.", { count: R.queue.length }), "queued");
  // Stopped by another device's step or a refusal: the box below says what can be done.
  else if (stopped) say(t("{count} waiting.", { count: R.queue.length }), "queued");
  // Nothing was left to send (the waiting actions were discarded): nothing is being sent.
  else if (!done.recorded) say("", "idle");
  // What the rules accept but flag (a revoke found from public facts) is said at once, from its
  // facts in the page's language, as the viewer says it.
  const disputes = done.events.filter((e) => e.type === "DisputeRaised").map((e) => disputeWords(e.data?.dispute || e.data || {}) || t("a dispute"));
  if (disputes.length) $("alert").textContent = t("Recorded, with a dispute: {disputes} Undo takes it back.", { disputes: disputes.join(" ") });
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
    say(t("Taken back before it was sent: {sentence}.", { sentence: last.sentence }), "recorded");
    draw();
    return;
  }
  await send("undo", null, t("Undo: {sentence}", { sentence: R.answer.undo.sentence }));
}

async function resolve(step) {
  $("recorder").dataset.busy = "1";
  await step();
  $("conflict").hidden = true;
  await sync(null);
}

// --- loading ---------------------------------------------------------------------------------

/** A read started before it is needed: a failure is met where it is awaited, not reported early. */
function ahead(read) {
  read.catch(() => {});
  return read;
}

/** The choices and the state (for the bids line), asked for together before they are needed. */
function readNext() {
  return { next: ahead(getJSON(api("/next"))), state: ahead(getJSON(api("/state"))) };
}

async function refresh(known = null, asked = null) {
  R.queue = await waiting(ID);
  try {
    if (!R.token) throw Object.assign(new Error("no token"), { quiet: true });
    // The state (for the bids line) is read alongside the choices, not after them.
    const state = asked?.state || ahead(getJSON(api("/state")));
    const answer = known || (await (asked?.next || getJSON(api("/next"))));
    R.online = true;
    R.answer = answer;
    await remember(ID, { next: answer });
    drawBids((await state).state);
  } catch (error) {
    if (error.status) $("alert").textContent = error.message;
    else if (!error.quiet) R.online = false;
  }
  draw();
  $("recorder").dataset.busy = "0";
}

const idle = () => $("recorder").dataset.busy === "0" && !R.queue.length && !$("sheet").open;

/** Follow what other devices record: when the match has moved on, draw its new choices (a page
 * left as it was keeps a half-made choice). */
async function watch() {
  if (document.hidden || !navigator.onLine || !R.token || !R.answer || R.answer.finished || !idle()) return;
  const seen = R.answer.version;
  const answer = await getJSON(api("/next")).catch(() => null);
  if (!answer || answer.version === seen || !idle() || R.answer.version !== seen) return;
  $("recorder").dataset.busy = "1";
  await refresh(answer);
  say(t("Another device recorded: the choices are those of step {step}.", { step: answer.version }), "idle");
}

/** The game's words (a module) and its title, asked for together: each is a round trip on a phone. */
function gameParts(game) {
  return {
    game,
    labels: import(`./labels/${game}.js`).catch(() => ({})),
    about: ahead(getJSON(`/v1/games/${encodeURIComponent(game)}`)),
  };
}

async function loadMatch() {
  // The match is asked for while this device looks up what it kept of it, and the game's words
  // and title with it when the page names its game.
  const reading = ahead(getJSON(api()));
  const early = GAME ? gameParts(GAME) : null;
  const known = await recall(ID);
  try {
    R.match = await reading;
    await remember(ID, { match: R.match });
  } catch (error) {
    if (error.status) throw error;
    R.match = known?.match;
    R.online = false;
  }
  R.answer = known?.next || null;
  if (!R.match) throw new Error(t("This match has not been opened on this device before, and the network is not reachable."));
  const { labels, about } = early?.game === R.match.game ? early : gameParts(R.match.game);
  R.labels = await labels;
  // The game's title as GET /v1/games says it in the page's language (kept for offline use).
  let game = known?.title;
  try {
    game = (await about).title;
    await remember(ID, { title: game });
  } catch {
    game ??= R.match.game;
  }
  const players = words(R.match.players);
  document.title = t("Record {game} · {players} · tabletape", { game, players });
  $("title").textContent = t("{game}: {players}", { game, players });
}

// Secret bids: who has bid shows at once, the bid itself only once the game shows it to all.
function drawBids(state) {
  const line = $("bids-line");
  line.hidden = !(state && SECRET_BIDDING.includes(state.bidding) && state.phase === "bidding");
  if (line.hidden) return;
  const entered = t("bid entered");
  const waiting = t("not yet");
  const said = state.players.map((p) => t("{player}: {bid}", { player: p, bid: p in state.bids ? state.bids[p] : state.have_bid.includes(p) ? entered : waiting }));
  line.textContent = t("Bids — {bids}", { bids: said.join(t(", ")) });
}

async function seatLink(player, row) {
  const made = await fetch(api(`/seats/${encodeURIComponent(player)}`), { method: "POST", headers: { Authorization: `Bearer ${R.token}`, Accept: "application/json", "Accept-Language": TAG } });
  const body = await made.json().catch(() => null);
  if (!made.ok) return put(row, h("p", { class: "error" }, problemWords(made.status, body)));
  const link = `${window.location.origin}${body.link}`;
  // The code is drawn by the server from a POST body, so the link's token is in no URL.
  const svg = await fetch("/qr.svg", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ link }) });
  const img = h("img", { class: "seat-qr", alt: t("QR code of {player}'s seat link", { player }), src: URL.createObjectURL(await svg.blob()) });
  put(row, h("input", { readonly: "", value: link, "aria-label": t("{player}'s seat link", { player }) }), img);
}

function drawSeats() {
  $("seats").hidden = !!SEAT || !R.token;
  if ($("seats").hidden) return;
  // A bid entered out of the others' sight is said only where the match's bids are (Wizard's).
  const hiddenBids = SECRET_BIDDING.includes(R.match.options?.bidding);
  $("seats-note").hidden = hiddenBids;
  $("seats-note-bids").hidden = !hiddenBids;
  put(
    $("seat-list"),
    R.match.players.map((p) => {
      const row = h("div", { class: "seat-row", "data-seat-of": p });
      const button = h("button", { type: "button", onclick: () => seatLink(p, row) }, t("Link for {player}", { player: p }));
      return h("div", { class: "seat" }, button, row);
    }),
  );
}

async function openSheet() {
  $("sheet").showModal();
  try {
    put($("sheet-body"), h("div", { class: "scroll" }, sheet(await getJSON(api("/scores")), R.match.players, R.match.game)));
  } catch (error) {
    put($("sheet-body"), h("p", {}, error.status ? error.message : t("The score sheet needs the network.")));
  }
}

function wire() {
  $("undo").addEventListener("click", undo);
  $("redo").addEventListener("click", () => send("redo", null, t("Redo: {sentence}", { sentence: R.answer.redo.sentence })));
  $("sheet-open").addEventListener("click", openSheet);
  // A tap outside the sheet (on its backdrop) closes it, as the Close buttons do.
  $("sheet").addEventListener("click", (event) => {
    const box = $("sheet").getBoundingClientRect();
    const inside = event.clientX >= box.left && event.clientX <= box.right && event.clientY >= box.top && event.clientY <= box.bottom;
    if (event.target === $("sheet") && !inside) $("sheet").close();
  });
  $("viewer-link").href = `/matches/${encodeURIComponent(ID)}`;
  $("hand-over").addEventListener("click", () => {
    const box = $("hand-over-box");
    box.hidden = !box.hidden;
    $("hand-over").setAttribute("aria-expanded", String(!box.hidden));
    $("hand-over-link").value = handOverLink(ID, R.token);
  });
  $("copy-link").addEventListener("click", () => navigator.clipboard?.writeText($("hand-over-link").value).then(() => say(t("The link is copied."), "idle")));
  window.addEventListener("online", () => {
    R.online = true;
    sync(null);
  });
  // A send that stopped on a busy server (or a network the browser thought was up) goes again.
  setInterval(() => {
    const head = R.queue[0];
    if (head?.status === "waiting" && navigator.onLine && $("recorder").dataset.busy === "0") sync(null);
  }, RETRY_MS);
  setInterval(watch, WATCH_MS);
  document.addEventListener("visibilitychange", watch);
  window.addEventListener("offline", () => {
    R.online = false;
    draw();
  });
}

async function start() {
  takeFromFragment(ID, SEAT);
  R.token = tokenFor(ID, SEAT);
  $("no-token").hidden = !!R.token;
  $("hand-over").hidden = !R.token || !!SEAT;
  wire();
  registerWorker();
  // The choices are asked for at once, while the match and its game's words load: on a phone
  // each read is a round trip.
  const asked = R.token && navigator.onLine ? readNext() : null;
  await loadMatch();
  if (SEAT) $("title").textContent += t(" — {player}'s seat", { player: SEAT });
  drawSeats();
  R.queue = await waiting(ID);
  if (R.queue.length && R.online) await sync(null);
  else await refresh(null, R.online ? asked : null);
  if (!R.online && R.queue.length) say(t("{count} waiting.", { count: R.queue.length }), "queued");
}

start().catch((error) => {
  $("recorder").dataset.busy = "0";
  $("turn").textContent = t("The match could not be opened.");
  $("alert").textContent = error.message;
  // No such match: what a token would allow does not matter here.
  if (error.status === 404) $("no-token").hidden = true;
});
