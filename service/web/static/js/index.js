// The index page: recent matches, newest first, filtered by game and player; an id opens a match.

import { getJSON } from "./api.js";
import { h, number, put, stamp, words } from "./dom.js";
import { t, tn } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const PAGE = 20;
const titles = {};
let asked = 0; // answers to an older query than the latest are dropped

function viewerHref(id) {
  return `/matches/${encodeURIComponent(id)}`;
}

function item(m) {
  const result = m.finished
    ? m.winners?.length
      ? t("won by {winners}", { winners: words(m.winners) })
      : t("a draw")
    : t("in progress");
  return h(
    "li",
    { class: "match" },
    h("a", { href: viewerHref(m.id), class: "match-link" }, h("strong", {}, titles[m.game] || m.game), " · ", words(m.players || [])),
    h(
      "span",
      { class: "muted" },
      ` ${result} · `,
      tn("{count} step", "{count} steps", m.version, { count: number(m.version) }),
      m.disputes ? " · " : "",
      m.disputes ? tn("{count} dispute", "{count} disputes", m.disputes) : "",
      m.created_ms ? ` · ${stamp(Number(m.created_ms))}` : "",
    ),
    h("code", { class: "id" }, m.id),
  );
}

function query() {
  const params = new URLSearchParams(window.location.search);
  return { game: params.get("game") || "", player: params.get("player") || "", offset: Number(params.get("offset")) || 0 };
}

function pageLink(q, offset, text) {
  const params = new URLSearchParams();
  if (q.game) params.set("game", q.game);
  if (q.player) params.set("player", q.player);
  if (offset) params.set("offset", String(offset));
  return h("a", { href: `?${params}` }, text);
}

async function list() {
  const q = query();
  $("filter-game").value = q.game;
  $("filter-player").value = q.player;
  const params = new URLSearchParams({ offset: String(q.offset), limit: String(PAGE) });
  if (q.game) params.set("game", q.game);
  if (q.player) params.set("player", q.player);
  const mine = ++asked;
  try {
    const page = await getJSON(`/v1/matches?${params}`);
    if (mine !== asked) return;
    put($("matches"), page.matches.map(item));
    $("matches").dataset.query = params.toString();
    const who = [q.game && (titles[q.game] || q.game), q.player && t("with {player}", { player: q.player })]
      .filter(Boolean)
      .join(" ");
    const total = tn("{count} match", "{count} matches", page.total, { count: number(page.total) });
    put($("list-status"), page.total ? (who ? t("{total} ({who})", { total, who }) : total) : t("No match yet."));
    put(
      $("pages"),
      page.links.prev ? pageLink(q, Math.max(0, q.offset - PAGE), t("← newer")) : [],
      page.links.next ? pageLink(q, q.offset + PAGE, t("older →")) : [],
    );
  } catch (error) {
    put($("list-status"), t("The matches could not be read: {reason}", { reason: error.message }));
  }
}

async function games() {
  const known = await getJSON("/v1/games").catch(() => ({ games: [] }));
  for (const game of known.games) {
    titles[game.id] = game.title;
    $("filter-game").append(h("option", { value: game.id }, game.title));
  }
}

function wire() {
  $("open").addEventListener("submit", (e) => {
    e.preventDefault();
    const id = $("open-id").value.trim();
    if (id) window.location.assign(viewerHref(id));
  });
  $("filters").addEventListener("submit", (e) => {
    e.preventDefault();
    const params = new URLSearchParams();
    if ($("filter-game").value) params.set("game", $("filter-game").value);
    if ($("filter-player").value.trim()) params.set("player", $("filter-player").value.trim());
    history.pushState({}, "", `?${params}`);
    list();
  });
  $("filter-game").addEventListener("change", () => $("filters").requestSubmit());
  window.addEventListener("popstate", list);
}

async function start() {
  wire();
  await games();
  await list();
}

start();
