// The Hobbit Card Game's cards and choices in words: "purple-12" is "purple 12".

import { t } from "../../i18n.js";
import { valueWords } from "../schema-form.js";

/** What each action type is called. */
export const actions = { start_round: t("start the round"), play: t("play a card"), distribute: t("hand out the trick") };

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "card") return { text: String(v).replace("-", " "), spoken: String(v).replace("-", " ") };
  if (field.startsWith("cards.")) return { text: valueWords(v), spoken: v === "discard" ? t("discard {card}", { card: last.replace("-", " ") }) : t("{card} to {player}", { card: last.replace("-", " "), player: v }) };
  if (last === "mark") return { text: valueWords(v), spoken: t("{mark} mark", { mark: valueWords(v) }) };
  return null;
}
