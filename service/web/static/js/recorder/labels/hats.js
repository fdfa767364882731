// Hats' cards and choices in words: "blue-4" is "blue hat 4"; a space is the tea table's.

import { colourCard } from "../../boards/common.js";
import { hatType } from "../../boards/hats.js";
import { t } from "../../i18n.js";

const TYPES = ["red", "orange", "yellow", "green", "blue", "purple", "pink"];
const CARDS = TYPES.flatMap((type) => [1, 2, 3, 4, 5, 6].map((n) => `${type}-${n}`));

/** The setup's fields whose values are ids, offered in words on /new: [value, words] each. */
export const setup = {
  table: CARDS.map((card) => [card, colourCard(card)]),
  removed_types: TYPES.map((type) => [type, hatType(type)]),
  hands: CARDS.map((card) => [card, colourCard(card)]),
};

/** What each action type is called. */
export const actions = {
  swap: t("swap a hat onto the tea table"),
  black_hat: t("take a black hat"),
  redraw: t("redraw"),
  partner_trade: t("trade with the partner"),
  favourite: t("show the favourite hat"),
};

function hat(v) {
  const [type, number] = String(v).split("-");
  return number ? t("{colour} hat {number}", { colour: hatType(type), number }) : String(v);
}

/** A value as shown and as spoken (`named`: its words name its field too, "space 3"). */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "space") return { text: t("space {n}", { n: v }), spoken: t("tea table space {n}", { n: v }), named: true };
  if (["card", "discarded", "drawn", "given", "received"].includes(last)) {
    const [type, number] = String(v).split("-");
    return { text: number ? `${hatType(type)} ${number}` : String(v), spoken: hat(v) };
  }
  return null;
}
