// Form controls built from a game's setup and options JSON Schemas, so that every game and every
// option is offered without a form written for one game. Each control is named after the API's
// field: `setup.first_dealer`, `options.canadian_rule`, `setup.characters.ann` (a map keyed by
// player gets one control per player), `setup.table` (a short list: one input per item).

import { colourCard, colourWord } from "../boards/common.js";
import { trickName } from "../boards/names.js";
import { h } from "../dom.js";
import { t } from "../i18n.js";

// The API's field and key names (machine words) as people read them.
const KEYS = {
  first_dealer: t("first dealer"),
  bidding: t("bidding order"),
  canadian_rule: t("Canadian rule"),
  clockwise: t("clockwise"),
  simultaneous: t("simultaneous"),
  secret: t("secret"),
  bids: t("bids"),
  bid: t("bid"),
  tricks: t("tricks"),
  points: t("points"),
  totals: t("totals"),
  total: t("total"),
  round: t("round"),
  rounds: t("rounds"),
  winners: t("winners"),
  dealer: t("dealer"),
  leader: t("leader"),
  player: t("player"),
  card: t("card"),
  // Hat Trick's rounds on the score sheet: how each card's round ended.
  outcome: t("outcome"),
  winner: t("winner"),
  won: t("won"),
  all_failed: t("every player failed"),
  abandoned: t("abandoned"),
  cards: t("cards"),
  trump_card: t("trump card"),
  suit: t("suit"),
  hands: t("hands"),
  scores: t("scores"),
  score: t("score"),
  start_player: t("start player"),
  first_player: t("first player"),
  // Hats
  table: t("tea table"),
  removed_types: t("removed hat types"),
  partners: t("partners"),
  space: t("space"),
  discarded: t("discarded"),
  drawn: t("drawn"),
  given: t("given"),
  received: t("received"),
  categories: t("categories"),
  black_hats: t("black hats"),
  collection: t("collection"),
  cookie: t("last cookie"),
  favourite: t("favourite hat"),
  type_values: t("hat type values"),
  decided_by: t("decided by"),
  // The Hobbit Card Game
  characters: t("characters"),
  bilbo: t("Bilbo"),
  thorin: t("Thorin"),
  gandalf: t("Gandalf"),
  smaug: t("Smaug"),
  bolg: t("Bolg"),
  marks: t("marks"),
  alive: t("alive"),
  character: t("character"),
  damage: t("damage"),
  damage_dealt: t("damage dealt"),
  health: t("health"),
  pipes: t("pipes"),
  side: t("side"),
  good: t("good"),
  evil: t("evil"),
  survivors: t("survivors"),
  discard: t("discard"),
  heal: t("heal"),
  mark: t("mark"),
  light: t("light"),
  dark: t("dark"),
  pipe: t("pipe"),
  distribution: t("distribution"),
  powers: t("by the characters' powers"),
  free: t("free"),
  elimination: t("elimination"),
  immediate: t("immediate"),
  end_of_round: t("at the end of the round"),
  // Hat Trick
  target: t("cards to win"),
  full_deck: t("full deck"),
  stars: t("stars"),
  off: t("no stars"),
  contain: t("a starred prop holds another"),
  empty: t("a starred prop holds nothing"),
  stack: t("stack"),
  prop: t("prop"),
  in: t("in"),
  on: t("on"),
  colour: t("in colour"),
  grey: t("in grey"),
  starred: t("starred"),
  verdict: t("verdict"),
  reason: t("reason"),
  // The Other Hat Trick
  first_trick: t("first trick"),
  trick: t("trick"),
  props: t("props"),
  slot: t("slot"),
  with_player: t("with player"),
  with_slot: t("with slot"),
  middle: t("middle"),
  penalties: t("penalties"),
  ended_by: t("ended by"),
};

/** A machine value the page has words for ("bilbo", "good", a trick's id), else the value as it is
(a player's name, a card id). */
export function valueWords(value) {
  if (typeof value === "boolean") return value ? t("yes") : t("no");
  const key = String(value);
  return KEYS[key] || (trickName(key) !== key ? trickName(key) : key);
}

/** A machine key ("first_dealer") in the page's words ("first dealer"). */
export function keyWords(key) {
  // The Other Hat Trick's tricks (first_trick's choices) are named as its board names them.
  // Hats' hat types (a figure per type) and cards written colour-value by their colours' words.
  if (KEYS[key]) return KEYS[key];
  if (trickName(key) !== key) return trickName(key);
  const [colour, value] = String(key).split("-");
  if (colourWord(colour) !== colour && (value === undefined || /^[0-9]+$/.test(value))) return colourCard(key);
  return String(key).replace(/[_-]+/g, " ");
}

// A string field that names a player (first dealer, start player, first player, leader).
const PLAYER_FIELD = /(^|_)(player|dealer|leader)$/;
const MAX_LISTED_ITEMS = 12;

/** "first_dealer" -> "First dealer". */
export function fieldWords(name) {
  const text = keyWords(name);
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// GET /v1/games marks a map keyed by the players' names (its description is in the page's language).
function keyedByPlayer(schema) {
  return schema.type === "object" && schema.additionalProperties && schema["x-keyed-by"] === "player";
}

/** A select of values said in words (`choices`: [value, words] each): one value, with a blank
 * first unless one is required and given, or several (`extra.multiple`: a list, no blank). */
function select(name, choices, chosen, required, id, describedBy, extra = {}) {
  const blank = extra.multiple || (required && chosen !== undefined) ? [] : [h("option", { value: "" }, required ? t("choose…") : "—")];
  const options = choices.map(([value, said]) => h("option", { value: String(value), selected: chosen !== undefined && String(value) === String(chosen) }, said));
  return h("select", { name, id, required: required && !extra.multiple, "aria-describedby": describedBy, ...extra }, [...blank, ...options]);
}

function leaf(name, schema, required, id, describedBy, players, choices) {
  const field = name.split(".").pop();
  if (choices && schema.type === "string") return select(name, choices, undefined, required, id, describedBy);
  if (choices && schema.type === "array") return select(name, choices, undefined, required, id, describedBy, { multiple: true, "data-many": "", size: 6 });
  if (schema.enum) return select(name, schema.enum.map((v) => [v, keyWords(v)]), schema.default, required, id, describedBy);
  if (schema.type === "boolean") {
    return h("input", { type: "checkbox", name, id, checked: schema.default === true, "aria-describedby": describedBy });
  }
  if (schema.type === "integer" || schema.type === "number") {
    const attrs = { type: "number", inputmode: "numeric", name, id, min: schema.minimum, max: schema.maximum };
    return h("input", { ...attrs, value: schema.default, required, "aria-describedby": describedBy });
  }
  if (schema.type === "string" && PLAYER_FIELD.test(field)) {
    return h("select", { name, id, required, "data-players": "", "aria-describedby": describedBy }, playerOptions(players, required));
  }
  if (schema.type === "string") {
    return h("input", { name, id, required, autocomplete: "off", "aria-describedby": describedBy });
  }
  if (schema.type === "array" && schema.items?.type === "string") {
    return h("input", { name, id, "data-list": "", autocomplete: "off", placeholder: t("separated by spaces"), "aria-describedby": describedBy });
  }
  return h("textarea", { name, id, "data-json": "", rows: 2, placeholder: "JSON", "aria-describedby": describedBy });
}

/** The options of a player select: the names entered so far, in seat order. */
export function playerOptions(players, required) {
  return [h("option", { value: "" }, required ? t("choose a player…") : "—"), ...players.map((p) => h("option", { value: p }, p))];
}

function hint(id, text) {
  // GET /v1/games answers every description in the page's language (the catalogs hold them all,
  // extracted from the games' schemas); t() keeps a description given in English as it is.
  return text ? h("p", { class: "hint muted", id }, t(text)) : null;
}

/** One field of a schema: its label, its control(s) and its description. `choices`: the game's
 * words for a field whose values are ids (Hats' cards: "red 1", never "red-1"), from its labels
 * module; such a field is chosen from a list, not typed. */
export function field(prefix, name, schema, required, players, choices = null) {
  const path = `${prefix}.${name}`;
  const id = path.replace(/\W/g, "-");
  const hid = `${id}-hint`;
  // Outside the template literal, where pybabel's JavaScript reader finds the msgid.
  const optional = required || schema.default !== undefined ? "" : t(" (optional)");
  const label = `${fieldWords(name)}${optional}`;
  if (keyedByPlayer(schema)) {
    const rows = players.map((p, i) =>
      h("div", { class: "pair" }, h("label", { for: `${id}-${i}` }, p), leaf(`${path}.${p}`, schema.additionalProperties, false, `${id}-${i}`, hid, players, choices)),
    );
    return h("fieldset", { class: "field", "data-keyed": path }, h("legend", {}, label), hint(hid, schema.description), rows);
  }
  if (schema.type === "array" && schema.items?.type === "string" && (schema.maxItems || 99) <= MAX_LISTED_ITEMS) {
    const inputs = Array.from({ length: schema.maxItems }, (_, i) =>
      choices
        ? select(path, choices, undefined, false, `${id}-${i}`, hid, { "aria-label": `${label}: ${i + 1}` })
        : h("input", { name: path, id: `${id}-${i}`, autocomplete: "off", "aria-label": `${label}: ${i + 1}`, "aria-describedby": hid }),
    );
    return h("fieldset", { class: "field", "data-items": path }, h("legend", {}, label), hint(hid, schema.description), h("div", { class: "items" }, inputs));
  }
  const control = leaf(path, schema, required, id, hid, players, choices);
  const row = control.type === "checkbox" ? h("label", { class: "check" }, control, " ", label) : [h("label", { for: id }, label), control];
  return h("div", { class: "field", "data-schema-type": schema.type || "" }, row, hint(hid, schema.description));
}

// Only the first dot nests: `characters.j.r.` is the key "j.r." of `characters`.
function put(target, path, value) {
  const dot = path.indexOf(".");
  if (dot < 0) target[path] = value;
  else (target[path.slice(0, dot)] ??= {})[path.slice(dot + 1)] = value;
}

function typed(control, schema) {
  if (control.type === "checkbox") return control.checked;
  if (control.hasAttribute("data-many")) {
    const picked = [...control.selectedOptions].map((o) => o.value);
    return picked.length ? picked : undefined;
  }
  const raw = control.value.trim();
  if (raw === "") return undefined;
  if (control.hasAttribute("data-json")) return JSON.parse(raw);
  if (control.hasAttribute("data-list")) return raw.split(/[\s,]+/).filter(Boolean);
  const kind = schema?.type || (schema?.enum && typeof schema.enum[0]);
  if (kind === "integer" || kind === "number") return Number(raw);
  return raw;
}

function schemaAt(root, path) {
  let schema = root;
  const [, field, inner] = path.match(/^[^.]+\.([^.]+)(?:\.(.*))?$/) || [];
  for (const step of [field, inner].filter((k) => k !== undefined)) {
    schema = schema?.properties?.[step] ?? schema?.additionalProperties ?? schema?.items;
    if (schema?.type === "array" && schema.items && !schema.properties) schema = schema.items;
  }
  return schema;
}

/** The setup or options object the form's controls under ``prefix`` say (empty ones left out). */
export function collect(form, prefix, root) {
  const found = {};
  for (const control of form.querySelectorAll(`[name^="${prefix}."]`)) {
    const value = typed(control, schemaAt(root, control.name));
    if (value === undefined) continue;
    if (control.closest("[data-items]")) {
      const list = (found[control.name] ??= []);
      list.push(value);
    } else put(found, control.name.slice(prefix.length + 1), value);
  }
  for (const [name, list] of Object.entries(found)) {
    if (name.startsWith(`${prefix}.`)) {
      delete found[name];
      put(found, name.slice(prefix.length + 1), list);
    }
  }
  return found;
}
