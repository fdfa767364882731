// The new-match page: a game, its players in seat order, and its setup and options, all built
// from GET /v1/games/{id}. Creating the match keeps its write token on this device and opens
// the recorder.

import { getJSON } from "../api.js";
import { h, put } from "../dom.js";
import { TAG, t } from "../i18n.js";
import { problemWords } from "./problems.js";
import { collect, field, fieldWords, playerOptions } from "./schema-form.js";
import { keepToken } from "./token.js";
import { registerWorker } from "./offline.js";

const $ = (id) => document.getElementById(id);
const form = $("new-match");
let game = null;
// The game's words for its ids (labels/<game>.js): its setup's cards and types are chosen, not typed.
let labels = {};

function seatInput(n, value = "") {
  const id = `seat-${n}`;
  const remove = h("button", { type: "button", class: "remove", "aria-label": t("Remove seat {n}", { n }), onclick: () => removeSeat(id) }, "✕");
  return h(
    "li",
    { class: "seat" },
    h("label", { for: id }, t("Seat {n}", { n })),
    h("input", { id, name: "players", value, autocomplete: "off", autocapitalize: "words", spellcheck: "false", oninput: refreshPlayers }),
    remove,
  );
}

function players() {
  return [...form.querySelectorAll('input[name="players"]')].map((i) => i.value.trim()).filter(Boolean);
}

function renumber() {
  const seats = [...$("seats").children];
  seats.forEach((li, i) => {
    li.querySelector("label").textContent = t("Seat {n}", { n: i + 1 });
    li.querySelector(".remove").setAttribute("aria-label", t("Remove seat {n}", { n: i + 1 }));
    li.querySelector(".remove").disabled = seats.length <= (game?.players.min ?? 1);
  });
  $("add-seat").disabled = seats.length >= (game?.players.max ?? 99);
}

function removeSeat(id) {
  $(id)?.closest("li").remove();
  renumber();
  refreshPlayers();
}

function addSeat() {
  const n = $("seats").children.length + 1;
  const li = seatInput(`${Date.now().toString(36)}${n}`);
  $("seats").append(li);
  renumber();
  li.querySelector("input").focus();
}

// The controls that name a player (and the maps keyed by player) follow the names entered.
function refreshPlayers() {
  const names = players();
  for (const select of form.querySelectorAll("select[data-players]")) {
    const chosen = select.value;
    put(select, playerOptions(names, select.required));
    select.value = names.includes(chosen) ? chosen : "";
  }
  if (form.querySelector("[data-keyed]")) drawSchemas();
}

/** What a control holds, to keep across a redraw (several values for a list's select). */
function keptValue(control) {
  if (control.type === "checkbox") return control.checked;
  return control.multiple ? [...control.selectedOptions].map((o) => o.value) : control.value;
}

function drawSchemas() {
  for (const part of ["setup", "options"]) {
    const schema = game[part];
    const names = Object.keys(schema.properties || {});
    const required = new Set(schema.required || []);
    const box = $(part);
    const kept = new Map([...box.querySelectorAll("[name]")].map((c) => [c.name + (c.id || ""), keptValue(c)]));
    const choices = (n) => (part === "setup" ? labels.setup?.[n] : null);
    put(box, h("legend", {}, part === "setup" ? t("Setup") : t("Options")), names.map((n) => field(part, n, schema.properties[n], required.has(n), players(), choices(n))));
    for (const control of box.querySelectorAll("[name]")) {
      const was = kept.get(control.name + (control.id || ""));
      if (was === undefined) continue;
      if (control.type === "checkbox") control.checked = was;
      else if (control.multiple) for (const option of control.options) option.selected = was.includes(option.value);
      else control.value = was;
    }
    box.hidden = names.length === 0;
  }
}

async function chooseGame(id) {
  $("new-status").textContent = t("Loading the game…");
  game = await getJSON(`/v1/games/${encodeURIComponent(id)}`);
  labels = await import(`./labels/${game.id}.js`).catch(() => ({}));
  const { min, max } = game.players;
  $("game-about").textContent = min === max ? t("{count} players.", { count: min }) : t("{min} to {max} players.", { min, max });
  const seats = $("seats");
  while (seats.children.length < game.players.min) seats.append(seatInput(seats.children.length + 1));
  while (seats.children.length > game.players.max) seats.lastElementChild.remove();
  renumber();
  drawSchemas();
  history.replaceState(null, "", `?game=${encodeURIComponent(id)}`);
  $("new-status").textContent = "";
}

function body() {
  return {
    game: $("game").value,
    players: players(),
    setup: collect(form, "setup", game.setup),
    options: collect(form, "options", game.options),
    timezone: Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
  };
}

/** The setup and option fields the game requires that the form leaves empty, as "part.name". */
function missing(sent) {
  const empty = [];
  for (const part of ["setup", "options"]) {
    for (const name of game[part].required || []) {
      const value = sent[part][name];
      const none = value === undefined || value === "" || (value && typeof value === "object" && Object.keys(value).length === 0);
      if (none) empty.push(`${part}.${name}`);
    }
  }
  return empty;
}

/** Say which required fields are empty, in the page's words, and take the person to the first. */
function askFor(paths) {
  const names = paths.map((path) => fieldWords(path.split(".")[1]));
  $("problem").textContent = t("Fill in before creating the match: {fields}", { fields: names.join(t(", ")) });
  const controls = paths.map((path) => form.querySelector(`[name="${path}"], [data-keyed="${path}"] [name]`)).filter(Boolean);
  for (const control of controls) control.setAttribute("aria-invalid", "true");
  controls[0]?.focus();
}

async function create(event) {
  event.preventDefault();
  $("problem").textContent = "";
  let sent;
  try {
    sent = body();
  } catch (error) {
    $("problem").textContent = t("A field holds something that is not JSON: {error}", { error: error.message });
    return;
  }
  // The players come first: a count the game does not take is the API's to explain.
  const seated = sent.players.length >= game.players.min && sent.players.length <= game.players.max;
  const empty = seated ? missing(sent) : [];
  if (empty.length) {
    askFor(empty);
    return;
  }
  $("create").disabled = true;
  try {
    const answer = await fetch("/v1/matches", { method: "POST", headers: { "Content-Type": "application/json", Accept: "application/json", "Accept-Language": TAG }, body: JSON.stringify(sent) });
    const made = await answer.json().catch(() => null);
    if (!answer.ok) throw new Error(problemWords(answer.status, made));
    keepToken(made.id, made.token);
    window.location.assign(`/matches/${encodeURIComponent(made.id)}/record`);
  } catch (error) {
    $("problem").textContent = error instanceof TypeError ? t("The match could not be created: the network is not reachable.") : error.message;
    $("create").disabled = false;
  }
}

async function start() {
  const known = await getJSON("/v1/games");
  const wanted = new URLSearchParams(window.location.search).get("game");
  put($("game"), known.games.map((g) => h("option", { value: g.id, selected: g.id === wanted }, g.title)));
  $("game").addEventListener("change", () => chooseGame($("game").value));
  $("add-seat").addEventListener("click", addSeat);
  form.addEventListener("submit", create);
  // A field the page asked for is no longer marked once something is entered in it.
  for (const kind of ["input", "change"]) form.addEventListener(kind, (event) => event.target.removeAttribute?.("aria-invalid"));
  await chooseGame($("game").value);
  registerWorker();
}

start().catch((error) => {
  $("new-status").textContent = t("The games could not be read: {error}", { error: error.message });
});
