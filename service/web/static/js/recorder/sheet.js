// The score sheet, one tap away: each game's own running figures from GET …/scores, drawn
// without a sheet written per game: per-player figures as columns, rounds (Wizard's bids, tricks
// and points) as rows, and the remaining facts as words.

import { DECIDED, ENDINGS, ENDS } from "../boards/names.js";
import { h, table, words } from "../dom.js";
import { t } from "../i18n.js";
import { keyWords, valueWords } from "./schema-form.js";

// The Hobbit's explanation and rule are stored English; the sheet says its reason and figures.
const SKIP = new Set(["version", "log_version", "projected", "finished", "explanation", "rule"]);

// Why a match ended, by its code.
const REASONS = {
  side_wiped_out: t("a side has no living character left"),
  more_survivors: t("more living characters"),
  more_damage_dealt: t("more damage dealt"),
  draw: t("a draw"),
};

// A game's own word for a key where the shared word means another thing (The Other Hat Trick's
// tricks are magic tricks, not Wizard's tricks won), and its coded values by key.
const GAME_KEYS = {
  "other-hat-trick": { tricks: t("tricks performed") },
  "hat-trick": { end: t("ended by") },
  hats: { teams: t("Teams") },
};
const GAME_VALUES = {
  "other-hat-trick": { ended_by: ENDINGS },
  "hat-trick": { end: ENDS },
  hats: { decided_by: DECIDED },
};

function perPlayer(value, players) {
  return value && typeof value === "object" && !Array.isArray(value) && players.some((p) => p in value);
}

function cell(value) {
  // A list of groups (Hats' teams): a line each, its players first, "ann, cy: total 25 · black hats 2".
  if (Array.isArray(value) && value.some((v) => v && typeof v === "object")) return value.map((v) => h("div", {}, group(v)));
  if (Array.isArray(value)) return value.map(valueWords).join(t(", ")) || "—";
  if (value && typeof value === "object") return Object.entries(value).map(([k, v]) => `${keyWords(k)} ${valueWords(v)}`).join(" · ");
  if (REASONS[value]) return REASONS[value];
  return value === null || value === undefined ? "—" : valueWords(value);
}

function group(value) {
  if (!value || typeof value !== "object") return cell(value);
  const { players, ...rest } = value;
  const said = Object.entries(rest).map(([k, v]) => `${keyWords(k)} ${cell(v)}`).join(" · ");
  return Array.isArray(players) ? t("{players}: {figures}", { players: words(players), figures: said }) : said;
}

function playerTable(scores, players, keyOf) {
  const columns = Object.keys(scores).filter((k) => !SKIP.has(k) && k !== "rounds" && perPlayer(scores[k], players));
  const nested = columns.filter((k) => players.some((p) => scores[k][p] && typeof scores[k][p] === "object" && !Array.isArray(scores[k][p])));
  const flat = columns.filter((k) => !nested.includes(k));
  const tables = [];
  if (flat.length) {
    tables.push(table(t("Per player"), [t("Player"), ...flat.map(keyOf)], players.map((p) => [p, ...flat.map((k) => cell(scores[k][p]))])));
  }
  for (const key of nested) {
    const inner = [...new Set(players.flatMap((p) => Object.keys(scores[key][p] || {})))];
    tables.push(table(keyOf(key), [t("Player"), ...inner.map(keyWords)], players.map((p) => [p, ...inner.map((k) => cell(scores[key][p]?.[k]))])));
  }
  return { tables, used: columns };
}

function roundTable(rounds, players) {
  if (!rounds?.length) return null;
  // Points (or a total) read last: "bids 1 · tricks 1 · points 30".
  const last = (k) => (/points|total/.test(k) ? 1 : 0);
  const keyed = Object.keys(rounds[0]).filter((k) => perPlayer(rounds[0][k], players)).sort((a, b) => last(a) - last(b));
  const plain = Object.keys(rounds[0]).filter((k) => k !== "round" && !keyed.includes(k));
  if (!keyed.length) return table(t("Rounds"), [t("Round"), ...plain.map(keyWords)], rounds.map((r, i) => [String(r.round ?? i + 1), ...plain.map((k) => cell(r[k]))]));
  const rows = rounds.map((r, i) => [String(r.round ?? i + 1), ...players.map((p) => keyed.map((k) => `${keyWords(k)} ${cell(r[k][p])}`).join(" · "))]);
  return table(t("Rounds"), [t("Round"), ...players], rows);
}

/** The sheet for a scoreboard of a game: tables per player, per round, and its other facts. */
export function sheet(scores, players, game) {
  const keyed = GAME_KEYS[game] || {};
  const coded = GAME_VALUES[game] || {};
  const keyOf = (k) => keyed[k] || keyWords(k);
  const factOf = (k, v) => (typeof v === "string" && coded[k]?.[v]) || cell(v);
  const { tables, used } = playerTable(scores, players, keyOf);
  const facts = Object.keys(scores).filter((k) => !SKIP.has(k) && k !== "rounds" && !used.includes(k) && scores[k] !== null && !(Array.isArray(scores[k]) && !scores[k].length));
  return h(
    "div",
    { class: "sheet-body" },
    h("p", {}, scores.finished ? t("Finished. Won by {winners}.", { winners: words(scores.winners || []) || t("nobody") }) : t("In progress.")),
    tables,
    roundTable(scores.rounds, players),
    facts.length ? h("dl", { class: "facts" }, facts.map((k) => h("div", {}, h("dt", {}, keyOf(k)), h("dd", {}, factOf(k, scores[k]))))) : null,
  );
}
