// Hat Trick's challenge cards, props and verdicts in words.

import { propName } from "../../boards/hat-trick.js";
import { t } from "../../i18n.js";
import { keyWords } from "../schema-form.js";

const PROPS = { hat: t("black top hat"), goblet: t("red goblet"), tube: t("orange tube"), coin: t("green coin"), rabbit: t("white rabbit") };

/** What each action type is called. */
export const actions = { reveal: t("reveal a challenge card"), declare: t("declare a stack"), judge: t("judge a declaration"), abandon_round: t("abandon the round") };

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (v && typeof v === "object" && v.prop) {
    const short = { prop: propName(v.prop), place: propName(v.in || v.on) };
    const where = v.in ? t("{prop} in {place}", short) : v.on === "table" ? t("{prop} on the table", short) : t("{prop} on {place}", short);
    const prop = PROPS[v.prop] || v.prop;
    const spoken = v.in
      ? t("{prop} in the {place}", { prop, place: PROPS[v.in] || v.in })
      : v.on === "table"
        ? t("{prop} on the table", { prop })
        : t("{prop} on the {place}", { prop, place: PROPS[v.on] || v.on });
    return { text: where, spoken };
  }
  if (last === "card") return { text: String(v), spoken: t("challenge card {card}", { card: v }) };
  if (PROPS[v]) return { text: propName(v), spoken: field.includes(".") || last !== "prop" ? t("{prop} ({part})", { prop: PROPS[v], part: keyWords(last) }) : PROPS[v] };
  if (last === "verdict") return { text: v === "pass" ? t("passes") : t("fails"), spoken: v === "pass" ? t("passes") : t("fails") };
  return null;
}
