// The Other Hat Trick's tricks, props and slots in words.

import { t } from "../../i18n.js";

const TRICKS = {
  "hungry-rabbit": t("The Hungry Rabbit"),
  "bunch-of-carrots": t("The Bunch of Carrots"),
  "vegetable-patch": t("The Vegetable Patch"),
  "rabbit-that-didnt-like-carrots": t("The Rabbit That Didn't Like Carrots"),
  "pair-of-rabbits": t("The Pair of Rabbits"),
  "vegetable-hat-trick": t("The Vegetable Hat Trick"),
  "carrot-hat-trick": t("The Carrot Hat Trick"),
  "slightly-easier-hat-trick": t("The Slightly Easier Hat Trick"),
  "hat-trick": t("The Hat Trick"),
  "other-hat-trick": t("The Other Hat Trick"),
};

export const actions = {
  turn_trick: t("turn the next trick"),
  swap: t("swap a prop"),
  perform: t("perform the trick"),
  fail: t("fail the trick"),
  reveal_all: t("reveal every prop"),
};

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "trick") return { text: TRICKS[v] || String(v), spoken: TRICKS[v] || String(v) };
  if (last === "slot" || last === "with_slot") {
    const n = Number(v) + 1;
    return { text: t("slot {n}", { n }), spoken: last === "slot" ? t("own prop in slot {n}", { n }) : t("their prop in slot {n}", { n }) };
  }
  if (typeof v === "string") return { text: v.replace(/-/g, " "), spoken: v.replace(/-/g, " ") };
  return null;
}
