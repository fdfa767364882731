// Hat Trick's challenge cards, props and verdicts in words.

const PROPS = { hat: "black top hat", goblet: "red goblet", tube: "orange tube", coin: "green coin", rabbit: "white rabbit" };

export const actions = { reveal: "reveal a challenge card", declare: "declare a stack", judge: "judge a declaration", abandon_round: "abandon the round" };

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (v && typeof v === "object" && v.prop) {
    const where = v.in ? `in ${v.in}` : v.on === "table" ? "on the table" : `on ${v.on}`;
    return { text: `${v.prop} ${where}`, spoken: `${PROPS[v.prop] || v.prop} ${v.in ? `in the ${PROPS[v.in] || v.in}` : v.on === "table" ? "on the table" : `on the ${PROPS[v.on] || v.on}`}` };
  }
  if (last === "card") return { text: String(v), spoken: `challenge card ${v}` };
  if (PROPS[v]) return { text: String(v), spoken: `${PROPS[v]}${field.includes(".") || last !== "prop" ? ` (${field.replace(/[._]/g, " ")})` : ""}` };
  if (last === "verdict") return { text: v, spoken: v === "pass" ? "passes" : "fails" };
  return null;
}
