// Hats' cards and choices in words: "blue-4" is "blue hat 4"; a space is the tea table's.

export const actions = { swap: "swap a hat onto the tea table", black_hat: "take a black hat", redraw: "redraw", partner_trade: "trade with the partner", favourite: "show the favourite hat" };

/** What an action type is called. */
export function action(type) {
  return actions[type];
}

function hat(v) {
  const [type, number] = String(v).split("-");
  return number ? `${type} hat ${number}` : String(v);
}

/** A value as shown and as spoken. */
export function value(field, v) {
  const last = field.split(".").pop();
  if (last === "space") return { text: `space ${v}`, spoken: `tea table space ${v}` };
  if (["card", "discarded", "drawn"].includes(last)) return { text: String(v).replace("-", " "), spoken: hat(v) };
  return null;
}
