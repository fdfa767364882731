// The Hobbit Card Game's cards and choices in words: "purple-12" is "purple 12" in the page's language.

import { colourCard } from "../../boards/common.js";
import { t } from "../../i18n.js";
import { valueWords } from "../schema-form.js";

/** What each action type is called. */
export const actions = { start_round: t("start the round"), play: t("play a card"), distribute: t("hand out the trick") };

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "card") return { text: colourCard(v), spoken: colourCard(v) };
  if (field.startsWith("cards.")) return { text: valueWords(v), spoken: v === "discard" ? t("discard {card}", { card: colourCard(last) }) : t("{card} to {player}", { card: colourCard(last), player: v }) };
  if (last === "mark") return { text: valueWords(v), spoken: t("{mark} mark", { mark: valueWords(v) }) };
  return null;
}
