// The Hobbit Card Game: characters, sides, health, the trick on the table and its distribution.

import { h, table, words } from "../dom.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";

function title(word) {
  return String(word || "").replace(/(^|[-_ ])(\w)/g, (_, gap, c) => `${gap === "-" || gap === "_" ? " " : gap}${c.toUpperCase()}`);
}

function card(code, mark) {
  const colour = String(code || "").split("-")[0];
  return h("span", { class: `card hobbit-${colour}`, title: code }, String(code), mark ? h("small", {}, ` ${mark}`) : null);
}

function health(c) {
  const full = c.health + c.damage;
  return h(
    "span",
    { class: "health", title: `${c.health} of ${full}` },
    h("meter", { min: 0, max: full, value: c.health, "aria-hidden": "true" }),
    ` ${c.health}/${full}`,
  );
}

function characters(state) {
  const rows = state.players.map((p) => {
    const c = state.characters[p];
    return [
      h("span", {}, name(p, state), c.alive ? null : h("span", { class: "tag out" }, "eliminated")),
      title(c.character),
      h("span", { class: `side side-${c.side}` }, c.side),
      health(c),
      String(c.pipes),
      String(c.cards_left ?? "—"),
      String(c.tricks_won ?? 0),
    ];
  });
  return table("Characters", ["Player", "Character", "Side", "Health", "Pipes", "Cards left", "Tricks"], rows);
}

function trick(state) {
  const t = state.trick;
  if (!t || !t.plays) return h("p", { class: "muted" }, "No trick yet.");
  const plays = t.plays.length
    ? h("ol", { class: "trick" }, t.plays.map((play) => h("li", {}, card(play.card, play.mark), h("span", { class: "by" }, play.player))))
    : h("p", { class: "muted" }, `${t.leader || "—"} leads; no card played yet.`);
  const given = Object.entries(t.distribution || {});
  return part(
    `Trick ${t.number ?? ""}${t.led ? ` · ${t.led} led` : ""}${t.winner ? ` · won by ${t.winner}` : ""}`,
    plays,
    given.length
      ? h(
          "div",
          {},
          h("h4", {}, "Distribution"),
          h("ul", { class: "plain" }, given.map(([c, p]) => h("li", {}, card(c), " → ", p))),
        )
      : null,
  );
}

/** The board after one step. */
export function board(state) {
  const dealt = state.damage_dealt || {};
  const alive = state.survivors || {};
  return h(
    "div",
    { class: "hobbit" },
    facts([
      ["Round", `${state.round} of ${state.rounds}`],
      ["Phase", phase(state)],
      ["Damage dealt", `good ${dealt.good ?? 0}, evil ${dealt.evil ?? 0}`],
      ["Survivors", `good ${alive.good ?? 0}, evil ${alive.evil ?? 0}`],
      state.result ? ["Result", state.result.explanation || words(state.result.winners || [])] : null,
    ]),
    characters(state),
    trick(state),
    disputes(state),
  );
}

/** A sentence for each of The Hobbit's events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "RoundStarted":
      return `Round ${d.round} starts; ${d.leader} leads`;
    case "CardPlayed":
      return `${d.player} plays ${d.card}${d.mark ? ` (${d.mark})` : ""}`;
    case "TrickWon":
      return `${d.player} wins trick ${d.trick} with ${d.card}`;
    case "CardsDistributed":
      return `${d.player} hands out the trick: ${Object.entries(d.cards || {}).map(([c, p]) => `${c} to ${p}`).join(", ")}`;
    case "CardTookEffect":
      return `${d.card} takes effect for ${d.player}: ${d.effect}`;
    case "LeaderChosen":
      return d.skipped ? `Trick ${d.trick}: ${d.player} leads (${d.winner} was skipped)` : `Trick ${d.trick}: ${d.player} leads`;
    case "DamageChanged":
      return `${d.player}: ${d.harm ? `${d.harm} harm` : ""}${d.harm && d.heal ? ", " : ""}${d.heal ? `${d.heal} healed` : ""}; health ${d.health}`;
    case "RoundEnded":
      return `Round ${d.round} ends; still standing: ${words(d.survivors || [])}`;
    case "PlayerEliminated":
      return `${d.player} (${title(d.character)}, ${d.side}) is eliminated`;
    case "MatchFinished":
      return d.explanation ? `The match is over: ${d.explanation}` : null;
    default:
      return null;
  }
}

/** Health per character over the steps. */
export function chart(frames) {
  const label = (p, c) => `${p} (${title(c.character)})`;
  const points = overSteps(frames, (state) =>
    state.characters ? Object.fromEntries(state.players.map((p) => [label(p, state.characters[p]), state.characters[p].health])) : null,
  );
  return { title: "Health", axis: "step", points };
}

/** Round by round: damage dealt and survivors per side when each round ended (from the view). */
export function sheet(scores, frames) {
  const ends = frames.filter((f) => f.event.type === "RoundEnded");
  const side = (values) => `good ${values?.good ?? 0}, evil ${values?.evil ?? 0}`;
  const rows = ends.map((f) => [`Round ${f.event.data.round}`, side(f.state.damage_dealt), side(f.state.survivors)]);
  return h(
    "div",
    {},
    rows.length ? table("Round by round", ["Round", "Damage dealt", "Survivors"], rows) : h("p", { class: "muted" }, "No round has ended yet."),
    h("p", {}, h("strong", {}, scores.finished ? "Result: " : "Now: "), scores.explanation || `damage dealt ${side(scores.damage_dealt)}; survivors ${side(scores.survivors)}`),
  );
}

/** Each round's start and each trick won, listed under their round. */
export function chapters(frames) {
  const found = [];
  for (const f of frames) {
    const d = f.event.data || {};
    if (f.event.type === "RoundStarted") found.push({ group: `Round ${d.round}`, label: `Round ${d.round} starts`, step: f.step });
    if (f.event.type === "TrickWon") found.push({ group: `Round ${f.state.round}`, label: `Trick ${d.trick} won by ${d.player}`, step: f.step });
  }
  return found;
}
