// What lets the recorder work at a table with bad Wi-Fi: the service worker that keeps the pages,
// and this device's IndexedDB (through the idb library): the queue of actions that wait to be
// sent, each with its Idempotency-Key and the version it expects, and the last answer of each
// match, so that a reload with no network still shows the match.

import { openDB } from "../../vendor/idb/index.js";

let opened = null;

function db() {
  opened ??= openDB("tabletape", 1, {
    upgrade(base) {
      const queue = base.createObjectStore("queue", { keyPath: "n", autoIncrement: true });
      queue.createIndex("match", "match");
      base.createObjectStore("matches", { keyPath: "id" });
    },
  });
  return opened;
}

/** Register the service worker (once per page; a browser without one simply works online). */
export function registerWorker() {
  if (!("serviceWorker" in navigator)) return Promise.resolve(null);
  return navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(() => null);
}

/** Put one action at the end of a match's queue; its number orders it. */
export async function enqueue(item) {
  const kept = { ...item, queued_at: Date.now(), status: "waiting" };
  const n = await (await db()).add("queue", kept);
  return { ...kept, n };
}

/** A match's waiting actions, oldest first. */
export async function waiting(matchId) {
  const items = await (await db()).getAllFromIndex("queue", "match", matchId);
  return items.sort((a, b) => a.n - b.n);
}

/** Write back a queued action (its status or its expected version changed). */
export async function update(item) {
  await (await db()).put("queue", item);
}

/** Take queued actions out of the queue (recorded, or discarded by the table). */
export async function remove(...numbers) {
  const tx = (await db()).transaction("queue", "readwrite");
  await Promise.all([...numbers.map((n) => tx.store.delete(n)), tx.done]);
}

/** Remember what this device last knew of a match (its facts and its last `next` answer). */
export async function remember(matchId, facts) {
  const base = await db();
  const known = (await base.get("matches", matchId)) || { id: matchId };
  await base.put("matches", { ...known, ...facts, id: matchId });
}

/** What this device last knew of a match, or null. */
export async function recall(matchId) {
  return (await (await db()).get("matches", matchId)) || null;
}
