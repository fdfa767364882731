// Hat Trick (the stacking game): the challenge card, the declarations in order, and each judged
// stack with the reasons of its verdict.

import { h, table, words } from "../dom.js";
import { disputes, facts, name, overSteps, part, phase } from "./common.js";

function challenge(card) {
  if (!card) return h("p", { class: "muted" }, "No card is in play.");
  const star = (prop) => ((card.starred || []).includes(prop) ? " ★" : "");
  return h(
    "div",
    { class: "challenge" },
    h("p", { class: "card-no" }, `Card no. ${card.card}`),
    h("p", {}, h("strong", {}, "Fully visible: "), (card.colour || []).map((p) => `${p}${star(p)}`).join(", ") || "—"),
    h("p", {}, h("strong", {}, "Hidden: "), (card.grey || []).map((p) => `${p}${star(p)}`).join(", ") || "—"),
  );
}

function stackWords(stack) {
  if (!stack) return "no stack recorded";
  return stack.map((place) => ("in" in place ? `${place.prop} in ${place.in}` : `${place.prop} on ${place.on}`)).join(", ");
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
        place.prop,
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
    ` — ${judgement.verdict === "pass" ? "passes" : "fails"} (judged by ${judgement.by})`,
    h("div", { class: "stack" }, `Stack: ${stackWords(stack)}`),
    stack ? drawStack(stack) : null,
    reasons.length ? h("ul", {}, reasons.map((r) => h("li", {}, r.message || r.requirement))) : null,
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
    return part("Judged stacks", h("ol", { class: "verdicts" }, state.judgements.map((j) => judged(j, stacks[j.player]))));
  }
  const last = state.last_round;
  if (!state.card && last) {
    const outcome = last.winner ? `won by ${last.winner}` : String(last.outcome || "").replace(/_/g, " ");
    return part(
      `Last round: card no. ${last.card}, ${outcome}`,
      (last.judgements || []).length
        ? h("ol", { class: "verdicts" }, last.judgements.map((j) => judged(j, stacks[j.player])))
        : h("p", { class: "muted" }, "No stack was judged."),
    );
  }
  return part("Judged stacks", h("p", { class: "muted" }, "Nothing judged in this round yet."));
}

/** The board after one step; `extra` has the frames and the step, for the declared stacks. */
export function board(state, extra) {
  const stacks = extra ? stacksOfRound(extra.frames, extra.step) : {};
  const queue = state.queue || [];
  const rows = state.players.map((p) => [name(p, state), (state.cards_won?.[p] || []).map((c) => `no. ${c}`).join(", ") || "—", String(state.totals?.[p] ?? 0)]);
  return h(
    "div",
    { class: "hat-trick" },
    facts([
      ["Phase", phase(state)],
      ["Deck", `${state.cards_revealed} revealed, ${state.cards_left} left`],
      ["Target", String(state.options?.target ?? "—")],
      ["Still building", words(state.in_round || []) || "—"],
      state.finished ? ["Winners", words(state.winners || []) || "nobody"] : null,
    ]),
    part("The challenge card", challenge(state.card)),
    part(
      "Declarations, in order",
      queue.length
        ? h("ol", {}, queue.map((d) => h("li", {}, h("strong", {}, d.player), ` — ${stackWords(d.stack)}`, d.stack ? drawStack(d.stack) : null)))
        : h("p", { class: "muted" }, "No declaration waits for judgement."),
    ),
    judgedPart(state, stacks),
    table("Cards won", ["Player", "Cards", "Points"], rows),
    disputes(state),
  );
}

/** A sentence for each of Hat Trick's events. */
export function sentence(event) {
  const d = event.data || {};
  switch (event.type) {
    case "CardRevealed":
      return `Card no. ${d.card} is turned: ${words(d.colour || [])} visible, ${words(d.grey || []) || "nothing"} hidden`;
    case "DeclarationMade":
      return `${d.player} declares${d.stack ? ` a stack of ${d.stack.length}` : ""}`;
    case "DeclarationJudged":
      return `${d.player}'s stack ${d.verdict === "pass" ? "passes" : "fails"}${d.reasons?.length ? `: ${d.reasons[0].message}` : ""}`;
    case "CardWon":
      return `${d.player} wins card no. ${d.card}`;
    case "CardDiscarded":
      return `Card no. ${d.card} is discarded (${String(d.reason || "").replace(/_/g, " ")})`;
    default:
      return null;
  }
}

/** Cards won per player over the steps. */
export function chart(frames) {
  return { title: "Cards won", axis: "step", points: overSteps(frames, (state) => state.totals || null) };
}

const OUTCOMES = { won: "won", all_failed: "every stack failed", abandoned: "abandoned" };

/** Card by card: who won each challenge card, and the cards each player holds (scoreboard). */
export function sheet(scores) {
  const rounds = (scores.rounds || []).map((r, i) => [
    `Round ${i + 1}`,
    `no. ${r.card}`,
    r.winner ? `won by ${r.winner}` : OUTCOMES[r.outcome] || String(r.outcome || "").replace(/_/g, " "),
  ]);
  const held = Object.entries(scores.cards || {}).map(([p, cards]) => [h("span", { class: "who" }, p), cards.map((c) => `no. ${c}`).join(", ") || "—", h("strong", {}, String(scores.totals?.[p] ?? 0))]);
  return h(
    "div",
    {},
    table("Cards won", ["Player", "Cards", "Total"], held),
    rounds.length ? table("Round by round", ["Round", "Card", "Outcome"], rounds) : h("p", { class: "muted" }, "No round is over yet."),
  );
}

/** Each challenge card turned, and who won it. */
export function chapters(frames) {
  const found = [];
  let round = 0;
  for (const f of frames) {
    const d = f.event.data || {};
    if (f.event.type === "CardRevealed") found.push({ group: `Round ${++round}`, label: `Card no. ${d.card} turned`, step: f.step });
    if (f.event.type === "CardWon") found.push({ group: `Round ${round}`, label: `${d.player} wins card no. ${d.card}`, step: f.step });
  }
  return found;
}
