import { t } from "../i18n.js";
import { keyWords } from "./schema-form.js";

// The API's problems (RFC 9457 bodies) in words for people: the detail, and each field error.

/** A sentence (or a few) for an API problem body, or for a failed fetch. The detail is the
 * API's sentence in the page's language; a schema error's `errors` (for programs, in the
 * validator's words) only add which fields were refused, named in the page's words. */
export function problemWords(status, body) {
  const answered = t("The server answered {status}.", { status });
  if (!body) return status ? answered : t("The network is not reachable.");
  const parts = [body.detail || body.title || answered];
  const errors = body.errors || body.fields;
  const refused = errors && typeof errors === "object" ? flatten(errors, []).filter(Boolean) : [];
  if (refused.length) parts.push(t("Fields refused: {fields}", { fields: refused.join(t(", ")) }));
  return parts.join(" ");
}

/** Every refused field's path in words ("setup · first dealer"), from marshmallow's
 * {field: [messages]} or a schema error's [{path, validator, ...}]. */
function flatten(errors, path) {
  if (Array.isArray(errors)) {
    // A required field's error is its parent's, and names the missing fields in `expected`.
    const paths = errors
      .filter((e) => e && Array.isArray(e.path))
      .flatMap((e) => (e.validator === "required" && Array.isArray(e.expected) ? e.expected.map((name) => [...e.path, name]) : [e.path]))
      .map((p) => [...path, ...p.map(String)]);
    return paths.length ? [...new Set(paths.map(named))] : [named(path)];
  }
  return Object.entries(errors).flatMap(([key, value]) => (value && typeof value === "object" && !Array.isArray(value) ? flatten(value, [...path, key]) : [named([...path, key])]));
}

function named(path) {
  return path.filter((k) => k !== "_schema" && !/^\d+$/.test(k)).map(keyWords).join(" · ");
}
