// The Hobbit Card Game's cards and choices in words: "purple-12" is "purple 12".

export const actions = { start_round: "start the round", play: "play a card", distribute: "hand out the trick" };

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "card") return { text: String(v).replace("-", " "), spoken: String(v).replace("-", " ") };
  if (field.startsWith("cards.")) return { text: String(v), spoken: v === "discard" ? `discard ${last.replace("-", " ")}` : `${last.replace("-", " ")} to ${v}` };
  if (last === "mark") return { text: String(v), spoken: `${v} mark` };
  return null;
}
