// The Other Hat Trick's tricks, props and slots in words.

const TRICKS = {
  "hungry-rabbit": "The Hungry Rabbit",
  "bunch-of-carrots": "The Bunch of Carrots",
  "vegetable-patch": "The Vegetable Patch",
  "rabbit-that-didnt-like-carrots": "The Rabbit That Didn't Like Carrots",
  "pair-of-rabbits": "The Pair of Rabbits",
  "vegetable-hat-trick": "The Vegetable Hat Trick",
  "carrot-hat-trick": "The Carrot Hat Trick",
  "slightly-easier-hat-trick": "The Slightly Easier Hat Trick",
  "hat-trick": "The Hat Trick",
  "other-hat-trick": "The Other Hat Trick",
};

export const actions = { turn_trick: "turn the next trick", swap: "swap a prop", perform: "perform the trick", fail: "fail the trick", reveal_all: "reveal every prop" };

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "trick") return { text: TRICKS[v] || String(v), spoken: TRICKS[v] || String(v) };
  if (last === "slot" || last === "with_slot") return { text: `slot ${Number(v) + 1}`, spoken: `${last === "slot" ? "own" : "their"} prop in slot ${Number(v) + 1}` };
  if (typeof v === "string") return { text: v.replace(/-/g, " "), spoken: v.replace(/-/g, " ") };
  return null;
}
