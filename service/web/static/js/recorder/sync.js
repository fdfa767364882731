// Sending the queue: in order, each action with its Idempotency-Key and the version it expects,
// through POST …/actions/batch where the server has it, else one write at a time (POST …/actions,
// …/undo, …/redo with If-Match). A key sent twice is recorded once: a retry after a lost answer,
// a reload mid-send and two tabs sending together all come back as the first answer.
//
// Only the first waiting action carries a version it knows; each later one expects the version
// its predecessor left, which the send learns (or, in a batch, the server follows in order).

import { TAG } from "../i18n.js";
import { remove, update, waiting } from "./offline.js";

let batchKnown = null; // null: not tried yet; false: the server has no batch endpoint

function base(matchId) {
  return `/v1/matches/${encodeURIComponent(matchId)}`;
}

/** The outcome of one flush: what was recorded, and why it stopped (if it did). */
function outcome() {
  return { recorded: 0, stopped: null, version: null, events: [] };
}

async function post(url, token, body, extra = {}) {
  // A refusal is said in the page's language, not the browser's.
  const headers = { Authorization: `Bearer ${token}`, Accept: "application/json", "Accept-Language": TAG, ...extra };
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const answer = await fetch(url, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: answer.status, body: await answer.json().catch(() => null) };
}

async function stopAt(item, status, problem, version) {
  await update({ ...item, status, problem, actual: version ?? null });
  return { kind: status, item, problem, version };
}

async function sendOne(matchId, token, item) {
  const headers = { "Idempotency-Key": item.key };
  if (item.expected_version != null) headers["If-Match"] = String(item.expected_version);
  const url = item.kind === "action" ? `${base(matchId)}/actions` : `${base(matchId)}/${item.kind}`;
  return post(url, token, item.kind === "action" ? item.action : undefined, headers);
}

async function oneByOne(matchId, token, items, done) {
  for (const [i, item] of items.entries()) {
    const answer = await sendOne(matchId, token, item);
    if (answer.status === 201 || answer.status === 200) {
      await remove(item.n);
      done.recorded += 1;
      done.events.push(...(answer.body?.events || []));
      done.version = answer.body?.version ?? done.version;
      if (items[i + 1]) {
        items[i + 1] = { ...items[i + 1], expected_version: done.version };
        await update(items[i + 1]);
      }
      continue;
    }
    if (answer.status === 412) done.stopped = await stopAt(item, "conflict", answer.body, answer.body?.actual);
    else if (answer.status >= 400 && answer.status < 500 && ![408, 409, 429].includes(answer.status)) {
      done.stopped = await stopAt(item, "refused", answer.body, null);
    } else done.stopped = { kind: "later", item, problem: answer.body };
    return done;
  }
  return done;
}

function batchBody(items) {
  return {
    items: items.map((item, i) => {
      const sent = { key: item.key, kind: item.kind };
      if (i === 0 && item.expected_version != null) sent.expected_version = item.expected_version;
      if (item.kind === "action") sent.action = item.action;
      return sent;
    }),
  };
}

async function inBatch(matchId, token, items, done) {
  const answer = await post(`${base(matchId)}/actions/batch`, token, batchBody(items));
  if (answer.status === 404 || answer.status === 405) {
    batchKnown = false;
    return oneByOne(matchId, token, items, done);
  }
  batchKnown = true;
  if (answer.status !== 200) {
    done.stopped = answer.status >= 500 || answer.status === 429 ? { kind: "later", problem: answer.body } : await stopAt(items[0], "refused", answer.body, null);
    return done;
  }
  done.version = answer.body.version;
  for (const [i, result] of answer.body.results.entries()) {
    const item = items[i];
    if (result.status === "recorded" || result.status === "duplicate") {
      await remove(item.n);
      done.recorded += 1;
      done.events.push(...(result.events || []));
    } else if (result.status === "conflict" || result.status === "refused") {
      const expected = i === 0 ? item.expected_version : answer.body.version;
      done.stopped = await stopAt({ ...item, expected_version: expected }, result.status, result.problem, result.version ?? answer.body.version);
      break;
    }
  }
  return done;
}

/** Send a match's waiting actions, in order, once (one tab at a time); say what became of them. */
export async function flush(matchId, token) {
  const run = async () => {
    const items = await waiting(matchId);
    const done = outcome();
    const head = items[0];
    if (head && !navigator.onLine) return { ...done, stopped: { kind: "offline" } };
    if (!head || head.status !== "waiting") return { ...done, stopped: head ? { kind: head.status, item: head, problem: head.problem, version: head.actual } : null };
    try {
      return batchKnown === false ? await oneByOne(matchId, token, items, done) : await inBatch(matchId, token, items, done);
    } catch {
      return { ...done, stopped: { kind: "offline" } };
    }
  };
  return navigator.locks ? navigator.locks.request(`tabletape-queue-${matchId}`, run) : run();
}

/** Send the stopped head again, expecting the version the match is at now (the table re-applies). */
export async function reapply(item, version) {
  await update({ ...item, status: "waiting", problem: null, expected_version: version });
}

/** Discard waiting actions the table chose to drop; the one after them expects what they expected. */
export async function discard(matchId, numbers) {
  const items = await waiting(matchId);
  const gone = new Set(numbers);
  const first = items.find((i) => gone.has(i.n));
  await remove(...numbers);
  const after = items.find((i) => !gone.has(i.n) && first && i.n > first.n);
  if (after && first) await update({ ...after, expected_version: first.expected_version, status: "waiting" });
}
