// The Other Hat Trick's tricks, props and slots in words.

import { propName } from "../../boards/other-hat-trick.js";
import { trickName } from "../../boards/names.js";
import { t } from "../../i18n.js";

/** What each action type is called. */
export const actions = {
  turn_trick: t("turn the next trick"),
  swap: t("swap a prop"),
  perform: t("perform the trick"),
  fail: t("fail the trick"),
  reveal_all: t("reveal every prop"),
};

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "trick") {
    const name = trickName(String(v));
    return { text: name, spoken: name };
  }
  if (last === "slot" || last === "with_slot") {
    const n = Number(v) + 1;
    return { text: t("slot {n}", { n }), spoken: last === "slot" ? t("own prop in slot {n}", { n }) : t("their prop in slot {n}", { n }), named: true };
  }
  if (typeof v === "string") return { text: propName(v), spoken: propName(v) };
  // A perform's props, slot 1's then slot 2's; the reveal's props of one player alike.
  if (Array.isArray(v)) {
    return {
      text: v.map(propName).join(" · "),
      spoken: v.map((prop, i) => `${t("slot {n}", { n: i + 1 })} ${propName(prop)}`).join(t(", ")),
    };
  }
  return null;
}
