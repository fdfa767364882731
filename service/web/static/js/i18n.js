// The page's language: the catalog the server exports from the same gettext files it reads
// (/i18n/<locale>.json, no second hand-kept table), and t()/tn() to look messages up in it.
// Mark every string a person reads with t("English text with {named} values", {named: ...}):
// `make translations` extracts t() and tn() calls from these files into the catalogs.

const root = document.documentElement;
/** The page's locale (en, zh_Hans, ja) and its BCP 47 tag (en, zh-Hans, ja). */
export const LOCALE = root.dataset.locale || "en";
export const TAG = root.lang || "en";

const catalog =
  LOCALE === "en"
    ? {}
    : await fetch(`/i18n/${LOCALE}.json`)
        .then((r) => (r.ok ? r.json() : {}))
        .catch(() => ({}));

function fill(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
}

/** A message in the page's language, its {named} placeholders filled from `values`. */
export function t(msgid, values) {
  const found = catalog[msgid];
  return fill(typeof found === "string" && found ? found : msgid, values);
}

/**
 * A message already in the page's language, its {named} placeholders filled from `values`: for
 * tables of sentences marked with t("…") where they are written and filled where they are shown.
 */
export function filled(text, values) {
  return fill(text, values);
}

/** A message whose form follows `n` (given to the text as {count}); Chinese and Japanese have one form. */
export function tn(singular, plural, n, values) {
  const forms = catalog[singular];
  const all = { count: n, ...(values || {}) };
  if (Array.isArray(forms) && forms.length) {
    const index = forms.length === 1 ? 0 : new Intl.PluralRules(TAG).select(n) === "one" ? 0 : 1;
    return fill(forms[Math.min(index, forms.length - 1)] || (n === 1 ? singular : plural), all);
  }
  return fill(n === 1 ? singular : plural, all);
}
