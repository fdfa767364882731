// tabletape's service worker: it keeps the new-match page, the recorder and their static files,
// so that the recorder opens at a table with no network. The API (/v1/…) is never cached here:
// the recorder keeps its own queue and last answers in IndexedDB.
//
// Pages and files are fetched from the network first (so a new release is seen at once) and
// from this cache when the network fails or is slower than FALLBACK_MS. Every recorder page is
// the same shell, which reads its match from the address, so one cached copy opens any match.

const CACHE = "tabletape-recorder-v9";
const FALLBACK_MS = 4000;
const SHELL = "/matches/_/record";
const FILES = [
  "/new",
  SHELL,
  "/manifest.webmanifest",
  "/assets/viewer.css",
  "/assets/recorder.css",
  "/assets/icon-192.png",
  "/assets/js/dom.js",
  "/assets/js/i18n.js",
  "/i18n/zh_Hans.json",
  "/i18n/ja.json",
  "/assets/js/api.js",
  "/assets/js/history.js",
  "/assets/js/boards/common.js",
  "/assets/js/boards/names.js",
  "/assets/js/boards/wizard.js",
  "/assets/js/boards/other-hat-trick.js",
  "/assets/js/boards/hat-trick.js",
  "/assets/js/boards/hats.js",
  "/assets/js/recorder/choices.js",
  "/assets/js/recorder/new.js",
  "/assets/js/recorder/offline.js",
  "/assets/js/recorder/problems.js",
  "/assets/js/recorder/record.js",
  "/assets/js/recorder/schema-form.js",
  "/assets/js/recorder/sheet.js",
  "/assets/js/recorder/sync.js",
  "/assets/js/recorder/token.js",
  "/assets/js/recorder/labels/wizard.js",
  "/assets/js/recorder/labels/hobbit.js",
  "/assets/js/recorder/labels/hats.js",
  "/assets/js/recorder/labels/other-hat-trick.js",
  "/assets/js/recorder/labels/hat-trick.js",
  "/assets/vendor/idb/index.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  const old = caches.keys().then((names) => Promise.all(names.filter((n) => n !== CACHE).map((n) => caches.delete(n))));
  event.waitUntil(old.then(() => self.clients.claim()));
});

function cacheKey(url) {
  if (/^\/matches\/[^/]+\/record$/.test(url.pathname)) return SHELL;
  return url.pathname === "/new" ? "/new" : url.pathname;
}

function kept(url) {
  return url.pathname === "/new" || url.pathname.startsWith("/assets/") || url.pathname.startsWith("/i18n/") || url.pathname === "/manifest.webmanifest" || /^\/matches\/[^/]+\/record$/.test(url.pathname);
}

async function networkFirst(request, key) {
  const cache = await caches.open(CACHE);
  const network = fetch(request).then((answer) => {
    if (answer.ok) cache.put(key, answer.clone());
    return answer;
  });
  const late = new Promise((resolve) => setTimeout(resolve, FALLBACK_MS)).then(() => cache.match(key));
  try {
    const first = await Promise.race([network, late.then((hit) => hit || network)]);
    return first;
  } catch (error) {
    const hit = await cache.match(key);
    if (hit) return hit;
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== self.location.origin || !kept(url)) return;
  event.respondWith(networkFirst(event.request, cacheKey(url)));
});
