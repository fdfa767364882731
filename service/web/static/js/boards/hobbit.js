// The Hobbit Card Game: characters, sides, health, the trick on the table and its distribution.

import { h, table, words } from "../dom.js";
import { t } from "../i18n.js";
import { colourCard, colourWord, disputes, facts, name, overSteps, part, phase, sentenceFor } from "./common.js";

// The characters and sides by the names the table knows them by.
const CHARACTERS = { bilbo: t("Bilbo"), thorin: t("Thorin"), smaug: t("Smaug"), gandalf: t("Gandalf"), bolg: t("Bolg") };
const SIDES = { good: t("good"), evil: t("evil") };
const side = (id) => SIDES[id] || id;
// A card's mark and what it does to whoever receives it.
const MARKS = { light: t("light"), dark: t("dark"), pipe: t("pipe") };
const EFFECTS = { damage: t("damage"), heal: t("heal"), pipe: t("pipe") };
// Where a distribution sends a card no player receives (no player may take this name).
const DISCARD = "discard";

// How a match can be decided, by the result's reason.
const ENDINGS = {
  side_wiped_out: t("{side} wins: {other} has no living character left"),
  more_survivors: t("{side} wins: {living} living characters against {against}"),
  more_damage_dealt: t("{side} wins: {living} living characters each, and {side} dealt {damage} damage against {received}"),
  draw: t("draw: {living} living characters each and {damage} damage dealt each"),
};

/** How the match was decided, from the result's facts (the recorded sentence is English). */
function explain(result) {
  const survivors = result.survivors || {};
  const dealt = result.damage_dealt || {};
  const winner = result.side;
  const other = winner === "good" ? "evil" : "good";
  const values = {
    side: side(winner),
    other: side(other),
    living: survivors[winner] ?? survivors.good,
    against: survivors[other],
    damage: dealt[winner] ?? dealt.good,
    received: dealt[other],
  };
  return sentenceFor(ENDINGS, result.reason, values) ?? (result.explanation || "");
}

function title(word) {
  if (CHARACTERS[word]) return CHARACTERS[word];
  return String(word || "").replace(/(^|[-_ ])(\w)/g, (_, gap, c) => `${gap === "-" || gap === "_" ? " " : gap}${c.toUpperCase()}`);
}

function card(code, mark) {
  const colour = String(code || "").split("-")[0];
  return h("span", { class: `card hobbit-${colour}`, title: code }, colourCard(code), mark ? h("small", {}, ` ${MARKS[mark] || mark}`) : null);
}

function health(c) {
  const full = c.health + c.damage;
  return h(
    "span",
    { class: "health", title: t("{health} of {full}", { health: c.health, full }) },
    h("meter", { min: 0, max: full, value: c.health, "aria-hidden": "true" }),
    ` ${c.health}/${full}`,
  );
}

function characters(state) {
  const rows = state.players.map((p) => {
    const c = state.characters[p];
    return [
      h("span", {}, name(p, state), c.alive ? null : h("span", { class: "tag out" }, t("eliminated"))),
      title(c.character),
      h("span", { class: `side side-${c.side}` }, side(c.side)),
      health(c),
      String(c.pipes),
      String(c.cards_left ?? "—"),
      String(c.tricks_won ?? 0),
    ];
  });
  const heads = [t("Player"), t("Character"), t("Side"), t("Health"), t("Pipes"), t("Cards left"), t("Tricks")];
  return table(t("Characters"), heads, rows);
}

function trick(state) {
  const now = state.trick;
  if (!now || !now.plays) return h("p", { class: "muted" }, t("No trick yet."));
  const plays = now.plays.length
    ? h("ol", { class: "trick" }, now.plays.map((play) => h("li", {}, card(play.card, play.mark), h("span", { class: "by" }, play.player))))
    : h("p", { class: "muted" }, t("{leader} leads; no card played yet.", { leader: now.leader || "—" }));
  const given = Object.entries(now.distribution || {});
  return part(
    [
      t("Trick {number}", { number: now.number ?? "" }),
      now.led ? t("{colour} led", { colour: colourWord(now.led) }) : "",
      now.winner ? t("won by {winners}", { winners: now.winner }) : "",
    ]
      .filter(Boolean)
      .join(" · "),
    plays,
    given.length
      ? h(
          "div",
          {},
          h("h4", {}, t("Distribution")),
          h("ul", { class: "plain" }, given.map(([c, p]) => h("li", {}, card(c), " → ", p === DISCARD ? t("discard") : p))),
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
      [t("Round"), t("{round} of {rounds}", { round: state.round, rounds: state.rounds })],
      [t("Phase"), phase(state)],
      [t("Damage dealt"), t("good {good}, evil {evil}", { good: dealt.good ?? 0, evil: dealt.evil ?? 0 })],
      [t("Survivors"), t("good {good}, evil {evil}", { good: alive.good ?? 0, evil: alive.evil ?? 0 })],
      state.result ? [t("Result"), explain(state.result) || words(state.result.winners || [])] : null,
    ]),
    characters(state),
    trick(state),
    disputes(state),
  );
}

/** A sentence for each of The Hobbit's events. */
export function sentence(event) {
  const d = { ...(event.data || {}) };
  if (typeof d.card === "string") d.card = colourCard(d.card);
  switch (event.type) {
    case "RoundStarted":
      return t("Round {round} starts; {leader} leads", d);
    case "CardPlayed":
      return d.mark ? t("{player} plays {card} ({mark})", { ...d, mark: MARKS[d.mark] || d.mark }) : t("{player} plays {card}", d);
    case "TrickWon":
      return t("{player} wins trick {trick} with {card}", d);
    case "CardsDistributed": {
      const cards = Object.entries(d.cards || {}).map(([c, p]) =>
        p === DISCARD ? t("discard {card}", { card: colourCard(c) }) : t("{card} to {player}", { card: colourCard(c), player: p }),
      );
      return t("{player} hands out the trick: {cards}", { player: d.player, cards: cards.join(t(", ")) });
    }
    case "CardTookEffect":
      return t("{card} takes effect for {player}: {effect}", { ...d, effect: EFFECTS[d.effect] || d.effect });
    case "LeaderChosen":
      return d.skipped ? t("Trick {trick}: {player} leads ({winner} was skipped)", d) : t("Trick {trick}: {player} leads", d);
    case "DamageChanged": {
      const parts = [d.harm ? t("{count} harm", { count: d.harm }) : "", d.heal ? t("{count} healed", { count: d.heal }) : ""];
      return t("{player}: {changes}; health {health}", { ...d, changes: parts.filter(Boolean).join(t(", ")) });
    }
    case "RoundEnded":
      return t("Round {round} ends; still standing: {players}", { round: d.round, players: words(d.survivors || []) });
    case "PlayerEliminated":
      return t("{player} ({character}, {side}) is eliminated", { player: d.player, character: title(d.character), side: side(d.side) });
    case "MatchFinished":
      return d.reason ? t("The match is over: {explanation}", { explanation: explain(d) }) : null;
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
  return { title: t("Health"), axis: t("step"), points };
}

/** Round by round: damage dealt and survivors per side when each round ended (from the view). */
export function sheet(scores, frames) {
  const ends = frames.filter((f) => f.event.type === "RoundEnded");
  const side = (values) => t("good {good}, evil {evil}", { good: values?.good ?? 0, evil: values?.evil ?? 0 });
  const rows = ends.map((f) => [t("Round {number}", { number: f.event.data.round }), side(f.state.damage_dealt), side(f.state.survivors)]);
  const heads = [t("Round"), t("Damage dealt"), t("Survivors")];
  const now = t("damage dealt {damage}; survivors {survivors}", { damage: side(scores.damage_dealt), survivors: side(scores.survivors) });
  return h(
    "div",
    {},
    rows.length ? table(t("Round by round"), heads, rows) : h("p", { class: "muted" }, t("No round has ended yet.")),
    h("p", {}, h("strong", {}, scores.finished ? t("Result: ") : t("Now: ")), (scores.reason ? explain(scores) : "") || now),
  );
}

/** Each round's start and each trick won, listed under their round. */
export function chapters(frames) {
  const found = [];
  for (const f of frames) {
    const d = f.event.data || {};
    if (f.event.type === "RoundStarted") found.push({ group: t("Round {number}", { number: d.round }), label: t("Round {number} starts", { number: d.round }), step: f.step });
    if (f.event.type === "TrickWon") found.push({ group: t("Round {number}", { number: f.state.round }), label: t("Trick {trick} won by {player}", { trick: d.trick, player: d.player }), step: f.step });
  }
  return found;
}
