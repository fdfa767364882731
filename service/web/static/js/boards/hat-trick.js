// Hat Trick (the stacking game): the challenge card, the declarations in order, and each judged
// stack with the reasons of its verdict.

import { h, table, words } from "../dom.js";
import { LOCALE, t } from "../i18n.js";
import { disputes, facts, name, overSteps, part, phase, sentenceFor } from "./common.js";

// The props by the table's words (the state keeps their ids), and why a card was discarded.
const PROPS = { coin: t("coin"), rabbit: t("rabbit"), tube: t("tube"), goblet: t("goblet"), hat: t("hat"), table: t("table") };
const prop = (id) => PROPS[id] || id;
/** A prop's name in the table's words (the id of a prop the catalogs do not know). */
export function propName(id) {
  return prop(id);
}
const DISCARDED = { abandoned: t("abandoned"), all_failed: t("every player failed") };
const JUDGES = { table: t("the table"), tabletape: t("tabletape") };
// Hat Trick's phases: a challenge card to turn, everyone building, declarations to judge.
const PHASES = { reveal: t("turning a challenge card"), build: t("building stacks"), judge: t("judging declarations") };

function challenge(card) {
  if (!card) return h("p", { class: "muted" }, t("No card is in play."));
  const star = (prop) => ((card.starred || []).includes(prop) ? " ★" : "");
  return h(
    "div",
    { class: "challenge" },
    h("p", { class: "card-no" }, t("Card no. {card}", { card: card.card })),
    h("p", {}, h("strong", {}, t("Fully visible: ")), (card.colour || []).map((p) => `${prop(p)}${star(p)}`).join(t(", ")) || "—"),
    h("p", {}, h("strong", {}, t("Hidden: ")), (card.grey || []).map((p) => `${prop(p)}${star(p)}`).join(t(", ")) || "—"),
  );
}

function stackWords(stack) {
  if (!stack) return t("no stack recorded");
  return stack
    .map((place) =>
      "in" in place
        ? t("{prop} in {holder}", { prop: prop(place.prop), holder: prop(place.in) })
        : t("{prop} on {under}", { prop: prop(place.prop), under: prop(place.on) }),
    )
    .join(t(", "));
}

// What each requirement of a stack asks, by its code.
const REQUIREMENTS = {
  colour_visible: t("the {prop} must be fully visible"),
  grey_hidden: t("the {prop} must be hidden in the stack"),
  others_out: t("the {prop} is not on the card but is in the stack"),
  star_holds: t("the {prop} is starred and must hold another prop"),
  star_empty: t("the {prop} is starred and must hold nothing"),
};

/** Why a stack failed: the recorded sentence in English, else its requirement in the page's language. */
function reasonWords(reason) {
  if (LOCALE === "en" && reason.message) return reason.message;
  return sentenceFor(REQUIREMENTS, reason.requirement, { prop: prop(reason.prop) }) ?? (reason.message || reason.requirement);
}

/** A stack drawn as built: each prop with what is in it inside its box and what is on it above. */
function drawStack(stack) {
  const inside = (prop, how) => stack.filter((p) => p[how] === prop);
  const tower = (place) =>
    h(
      "div",
      { class: "tower" },
      h(
        "span",
        { class: `prop-box prop-${place.prop}` },
        prop(place.prop),
        inside(place.prop, "in").length ? h("span", { class: "inside" }, inside(place.prop, "in").map(tower)) : null,
      ),
      inside(place.prop, "on").length ? h("span", { class: "above" }, inside(place.prop, "on").map(tower)) : null,
    );
  const grounded = stack.filter((p) => p.on === "table" || (!("on" in p) && !("in" in p)));
  return h("div", { class: "drawn-stack", role: "img", "aria-label": stackWords(stack) }, h("div", { class: "above" }, grounded.map(tower)));
}

function judged(judgement, stack) {
  const reasons = judgement.reasons || [];
  return h(
    "li",
    { class: `verdict ${judgement.verdict}` },
    h("strong", {}, judgement.player),
    " — ",
    judgement.verdict === "pass"
      ? t("passes (judged by {judge})", { judge: JUDGES[judgement.by] || judgement.by })
      : t("fails (judged by {judge})", { judge: JUDGES[judgement.by] || judgement.by }),
    h("div", { class: "stack" }, t("Stack: {stack}", { stack: stackWords(stack) })),
    stack ? drawStack(stack) : null,
    reasons.length ? h("ul", {}, reasons.map((r) => h("li", {}, reasonWords(r)))) : null,
  );
}

/** The stacks declared in the round of this step, by player (from the events up to the step). */
function stacksOfRound(frames, upTo) {
  const stacks = {};
  for (const frame of frames) {
    if (frame.step > upTo) break;
    if (frame.event.type === "CardRevealed") for (const k of Object.keys(stacks)) delete stacks[k];
    if (frame.event.type === "DeclarationMade") stacks[frame.event.data.player] = frame.event.data.stack;
  }
  return stacks;
}

// Once a round is over the view keeps it as `last_round`: its verdicts stay worth reading.
function judgedPart(state, stacks) {
  if ((state.judgements || []).length) {
    return part(t("Judged stacks"), h("ol", { class: "verdicts" }, state.judgements.map((j) => judged(j, stacks[j.player]))));
  }
  const last = state.last_round;
  if (!state.card && last) {
    const outcome = last.winner
      ? t("won by {winners}", { winners: last.winner })
      : DISCARDED[last.outcome] || String(last.outcome || "").replace(/_/g, " ");
    return part(
      t("Last round: card no. {card}, {outcome}", { card: last.card, outcome }),
      (last.judgements || []).length
        ? h("ol", { class: "verdicts" }, last.judgements.map((j) => judged(j, stacks[j.player])))
        : h("p", { class: "muted" }, t("No stack was judged.")),
    );
  }
  return part(t("Judged stacks"), h("p", { class: "muted" }, t("Nothing judged in this round yet.")));
}

/** The board after one step; `extra` has the frames and the step, for the declared stacks. */
export function board(state, extra) {
  const stacks = extra ? stacksOfRound(extra.frames, extra.step) : {};
  const queue = state.queue || [];
  const rows = state.players.map((p) => [name(p, state), (state.cards_won?.[p] || []).map((c) => t("no. {card}", { card: c })).join(t(", ")) || "—", String(state.totals?.[p] ?? 0)]);
  return h(
    "div",
    { class: "hat-trick" },
    facts([
      [t("Phase"), phase(state, PHASES)],
      [t("Deck"), t("{revealed} revealed, {left} left", { revealed: state.cards_revealed, left: state.cards_left })],
      [t("Target"), String(state.options?.target ?? "—")],
      [t("Still building"), words(state.in_round || []) || "—"],
      state.finished ? [t("Winners"), words(state.winners || []) || t("nobody")] : null,
    ]),
    part(t("The challenge card"), challenge(state.card)),
    part(
      t("Declarations, in order"),
      queue.length
        ? h("ol", {}, queue.map((d) => h("li", {}, h("strong", {}, d.player), ` — ${stackWords(d.stack)}`, d.stack ? drawStack(d.stack) : null)))
        : h("p", { class: "muted" }, t("No declaration waits for judgement.")),
    ),
    judgedPart(state, stacks),
    table(t("Cards won"), [t("Player"), t("Cards"), t("Points")], rows),
    disputes(state),
  );
}

/** A sentence for each of Hat Trick's events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "CardRevealed":
    {
      const nothing = t("nothing");
      return t("Card no. {card} is turned: {visible} visible, {hidden} hidden", {
        card: d.card,
        visible: words((d.colour || []).map(prop)),
        hidden: words((d.grey || []).map(prop)) || nothing,
      });
    }
    case "DeclarationMade":
      return d.stack
        ? t("{player} declares a stack of {count}", { player: d.player, count: d.stack.length })
        : t("{player} declares", d);
    case "DeclarationJudged": {
      const said = d.verdict === "pass" ? t("{player}'s stack passes", d) : t("{player}'s stack fails", d);
      return d.reasons?.length ? t("{said}: {reason}", { said, reason: reasonWords(d.reasons[0]) }) : said;
    }
    case "CardWon":
      return t("{player} wins card no. {card}", d);
    case "CardDiscarded":
      return t("Card no. {card} is discarded ({reason})", { card: d.card, reason: DISCARDED[d.reason] || d.reason });
    default:
      return null;
  }
}

/** Cards won per player over the steps. */
export function chart(frames) {
  return { title: t("Cards won"), axis: t("step"), points: overSteps(frames, (state) => state.totals || null) };
}

const OUTCOMES = { won: t("won"), all_failed: t("every stack failed"), abandoned: t("abandoned") };

/** Card by card: who won each challenge card, and the cards each player holds (scoreboard). */
export function sheet(scores) {
  const rounds = (scores.rounds || []).map((r, i) => [
    t("Round {number}", { number: i + 1 }),
    t("no. {card}", { card: r.card }),
    r.winner ? t("won by {player}", { player: r.winner }) : OUTCOMES[r.outcome] || String(r.outcome || "").replace(/_/g, " "),
  ]);
  const held = Object.entries(scores.cards || {}).map(([p, cards]) => [h("span", { class: "who" }, p), cards.map((c) => t("no. {card}", { card: c })).join(t(", ")) || "—", h("strong", {}, String(scores.totals?.[p] ?? 0))]);
  return h(
    "div",
    {},
    table(t("Cards won"), [t("Player"), t("Cards"), t("Total")], held),
    rounds.length ? table(t("Round by round"), [t("Round"), t("Card"), t("Outcome")], rounds) : h("p", { class: "muted" }, t("No round is over yet.")),
  );
}

/** Each challenge card turned, and who won it. */
export function chapters(frames) {
  const found = [];
  let round = 0;
  for (const f of frames) {
    const d = f.event.data || {};
    if (f.event.type === "CardRevealed") {
      round += 1;
      found.push({ group: t("Round {number}", { number: round }), label: t("Card no. {card} turned", { card: d.card }), step: f.step });
    }
    if (f.event.type === "CardWon") found.push({ group: t("Round {number}", { number: round }), label: t("{player} wins card no. {card}", d), step: f.step });
  }
  return found;
}
