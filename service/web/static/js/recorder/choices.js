// The legal actions of GET …/next as controls. A single-field action is one tap per value; a
// compound one (several fields, or fields that depend on one another) is built field by field
// and sent with one more tap on its send button. Every value control says what it is for tests
// and screen readers alike: data-action (the type), data-field (the dotted path), data-value (as
// the API spells it) and an accessible name in words ("7 of hearts").

import { h } from "../dom.js";
import { t } from "../i18n.js";
import { keyWords } from "./schema-form.js";

const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);

/** "bids.ann" -> "bids · ann"; "with_player" -> "with player". */
export function fieldWords(name) {
  return name.split(".").map(keyWords).join(" · ");
}

/** The action an entry and its chosen values make: {type, ...fixed, fields at their paths}.
 * Only the first dot nests: `bids.j.r.` is the key "j.r." of `bids` (a name may hold dots). */
export function build(entry, chosen) {
  const action = { type: entry.type, ...entry.fixed };
  for (const [name, value] of Object.entries(chosen)) {
    const dot = name.indexOf(".");
    if (dot < 0) action[name] = value;
    else (action[name.slice(0, dot)] ??= {})[name.slice(dot + 1)] = value;
  }
  return action;
}

/** "bob: play a card", "Record a whole round". */
export function entryTitle(entry, labels) {
  const doing = labels.actions?.[entry.type] || entry.type.replace(/_/g, " ");
  return entry.fixed.player ? t("{player}: {doing}", { player: entry.fixed.player, doing }) : doing.charAt(0).toUpperCase() + doing.slice(1);
}

function valueButton(entry, field, value, labels, onclick) {
  const said = labels.value?.(field.name, value, entry) || {};
  const plain = value && typeof value === "object" ? Object.entries(value).map(([k, v]) => `${k} ${v}`).join(", ") : String(value);
  // A value the rules accept but flag (a revoke seen from public facts) says so before the tap.
  const flag = field.flags?.[typeof value === "string" ? value : JSON.stringify(value)];
  const text = `${said.text ?? plain}${flag ? " ⚠" : ""}`;
  const spoken = flag ? t("{value}, flagged: {flag}", { value: said.spoken ?? plain, flag }) : said.spoken;
  return h(
    "button",
    {
      type: "button",
      "data-action": entry.type,
      "data-field": field.name,
      "data-value": typeof value === "string" ? value : JSON.stringify(value),
      "data-player": entry.fixed.player,
      "aria-label": spoken && spoken !== text ? spoken : null,
      title: flag || null,
      class: ["choice", flag ? "flagged" : "", said.tone || ""].filter(Boolean).join(" "),
      onclick,
    },
    text,
  );
}

const rests = (bond, value) => bond.under.map((key) => value[key]).find((v) => v !== undefined);

/** Whether ``value`` may go onto the stack picked so far: a node not placed yet, resting on the
 * root when nothing is placed, else on a node placed (the stack is built from the table up). */
function stacks(bond, picked, value) {
  const placed = (picked || []).map((v) => v[bond.node]);
  if (placed.includes(value[bond.node])) return false;
  return placed.length ? placed.includes(rests(bond, value)) : rests(bond, value) === bond.root;
}

/** The stack left once a value is taken off it: what rested on a node no longer placed goes too. */
function keepStack(entry, picks) {
  const bond = entry.stack;
  if (!bond) return;
  const picked = picks.get(bond.field) || [];
  let kept = picked.filter((v) => rests(bond, v) === bond.root).slice(0, 1);
  for (let grew = true; grew; ) {
    const placed = kept.map((v) => v[bond.node]);
    const more = picked.filter((v) => !kept.includes(v) && !placed.includes(v[bond.node]) && placed.includes(rests(bond, v)));
    kept = kept.concat(more);
    grew = more.length > 0;
  }
  if (kept.length) picks.set(bond.field, picked.filter((v) => kept.includes(v)));
  else picks.delete(bond.field);
}

/** Whether ``value`` of ``field`` still fits the entry's other picks (its choices, its sum, the
 * fields it shares no value with, the fields its values must be chosen in). */
function fits(entry, picks, field, value) {
  const others = [...picks].filter(([name]) => name !== field.name);
  if (entry.choices) {
    const ok = entry.choices.some((c) => (!(field.name in c) || same(c[field.name], value)) && others.every(([n, v]) => !(n in c) || same(c[n], v)));
    if (!ok) return false;
  }
  // A value chosen in one of fields that share none (a prop in colour is not grey too).
  if (entry.together?.fields.includes(field.name) && entry.together.fields.some((n) => n !== field.name && (picks.get(n) || []).some((v) => same(v, value)))) return false;
  // A value that must be one chosen in other fields (a starred prop is on the card).
  if (entry.within?.fields.includes(field.name) && !entry.within.of.some((n) => (picks.get(n) || []).some((v) => same(v, value)))) return false;
  const sum = entry.sum;
  if (sum && sum.fields.includes(field.name) && typeof value === "number") {
    let low = value;
    let high = value;
    for (const name of sum.fields) {
      if (name === field.name) continue;
      if (picks.has(name)) {
        low += picks.get(name);
        high += picks.get(name);
      } else {
        const values = entry.fields.find((f) => f.name === name)?.values || [0];
        low += Math.min(...values);
        high += Math.max(...values);
      }
    }
    if (sum.equals < low || sum.equals > high) return false;
  }
  return true;
}

function complete(entry, picks) {
  for (const field of entry.fields) {
    const picked = picks.get(field.name);
    if (field.multiple) {
      const count = picked?.length || 0;
      if (!(field.optional && count === 0) && count < (field.min ?? 1)) return false;
    } else if (picked === undefined && !field.optional) return false;
  }
  if (entry.sum && entry.sum.fields.reduce((t, n) => t + (picks.get(n) ?? 0), 0) !== entry.sum.equals) return false;
  if (entry.together && entry.together.fields.reduce((t, n) => t + (picks.get(n)?.length || 0), 0) < entry.together.min) return false;
  if (entry.choices && !entry.choices.some((c) => Object.entries(c).every(([n, v]) => same(picks.get(n), v)))) return false;
  return true;
}

/** Let go of values a ``within`` bond no longer allows (a star on a prop taken off the card). */
function keepWithin(entry, picks) {
  if (!entry.within) return;
  const allowed = entry.within.of.flatMap((n) => picks.get(n) || []);
  for (const name of entry.within.fields) {
    const kept = (picks.get(name) || []).filter((v) => allowed.some((a) => same(a, v)));
    if (kept.length) picks.set(name, kept);
    else picks.delete(name);
  }
}

function schemaInput(entry, field, picks, refresh) {
  const numeric = field.schema?.type === "integer" || field.schema?.type === "number";
  const plain = numeric || field.schema?.type === "string";
  return h("input", {
    class: "entry-input",
    type: numeric ? "number" : "text",
    inputmode: numeric ? "numeric" : null,
    "data-action": entry.type,
    "data-field": field.name,
    "data-player": entry.fixed.player,
    "aria-label": fieldWords(field.name),
    placeholder: plain ? null : "JSON",
    oninput: (e) => {
      const raw = e.target.value.trim();
      try {
        if (raw === "") picks.delete(field.name);
        else picks.set(field.name, numeric ? Number(raw) : plain ? raw : JSON.parse(raw));
        e.target.setCustomValidity("");
      } catch {
        picks.delete(field.name);
        e.target.setCustomValidity(t("not JSON"));
      }
      refresh();
    },
  });
}

function compound(entry, labels, onSend) {
  const picks = new Map();
  const buttons = [];
  const send = h("button", { type: "button", class: "send primary wide", "data-submit": entry.type, "data-player": entry.fixed.player, disabled: true }, t("Send: {action}", { action: entryTitle(entry, labels) }));
  const refresh = () => {
    for (const { button, field, value } of buttons) {
      const picked = picks.get(field.name);
      const on = field.multiple ? (picked || []).some((v) => same(v, value)) : picked !== undefined && same(picked, value);
      const full = field.multiple && !on && (picked?.length || 0) >= (field.max ?? Infinity);
      button.setAttribute("aria-pressed", String(on));
      // A stack offers only what can go onto it now: five props on the table, then what rests
      // on or in the props placed.
      const offStack = !on && entry.stack?.field === field.name && !stacks(entry.stack, picked, value);
      button.hidden = offStack;
      button.disabled = !on && (offStack || full || !fits(entry, picks, field, value));
    }
    send.disabled = !complete(entry, picks);
  };
  const groups = entry.fields.map((field) => {
    // Outside the template literal, where pybabel's JavaScript reader finds the msgids.
    const optional = field.optional ? t(" (optional)") : "";
    const several = field.multiple ? t(" (several)") : "";
    const label = `${fieldWords(field.name)}${optional}${several}`;
    if (!field.values && field.optional) {
      // A fact the table may add (recorded hands): out of the way until asked for.
      return h("details", { class: "field-group" }, h("summary", {}, label), schemaInput(entry, field, picks, refresh));
    }
    if (!field.values) return h("div", { class: "field-group" }, h("span", { class: "field-name" }, label), schemaInput(entry, field, picks, refresh));
    const controls = field.values.map((value) => {
      const button = valueButton(entry, field, value, labels, () => {
        const picked = picks.get(field.name);
        if (field.multiple) {
          const list = (picked || []).filter((v) => !same(v, value));
          const next = list.length === (picked || []).length ? [...list, value] : list;
          if (next.length) picks.set(field.name, next);
          else picks.delete(field.name);
        } else if (picked !== undefined && same(picked, value)) picks.delete(field.name);
        else picks.set(field.name, value);
        keepWithin(entry, picks);
        keepStack(entry, picks);
        refresh();
      });
      buttons.push({ button, field, value });
      return button;
    });
    return h("div", { class: "field-group", role: "group", "aria-label": label }, h("span", { class: "field-name", "aria-hidden": "true" }, label), h("div", { class: "values" }, controls));
  });
  send.addEventListener("click", () => onSend(entry, Object.fromEntries(picks)));
  refresh();
  return [groups, send];
}

function single(entry, labels, onSend) {
  const field = entry.fields[0];
  return h(
    "div",
    { class: "values", role: "group", "aria-label": `${entryTitle(entry, labels)}: ${fieldWords(field.name)}` },
    field.values.map((value) => valueButton(entry, field, value, labels, () => onSend(entry, { [field.name]: value }))),
  );
}

/** One legal action as a panel of controls; ``onSend(entry, chosen)`` records it. */
export function entryPanel(entry, labels, onSend) {
  const f = entry.fields;
  const oneTap = f.length === 1 && f[0].values && !f[0].multiple && !f[0].optional && !entry.choices && !entry.sum;
  let body;
  if (!f.length) {
    body = h("button", { type: "button", class: "send primary wide", "data-submit": entry.type, "data-player": entry.fixed.player, onclick: () => onSend(entry, {}) }, t("Send: {action}", { action: entryTitle(entry, labels) }));
  } else body = oneTap ? single(entry, labels, onSend) : compound(entry, labels, onSend);
  return h(
    "section",
    { class: "entry", "data-entry": entry.type, "data-player": entry.fixed.player },
    h("h3", {}, entryTitle(entry, labels)),
    entry.note ? h("p", { class: "note muted" }, entry.note) : null,
    body,
  );
}
