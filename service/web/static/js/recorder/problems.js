import { t } from "../i18n.js";

// The API's problems (RFC 9457 bodies) in words for people: the detail, and each field error.

/** A sentence (or a few) for an API problem body, or for a failed fetch. */
export function problemWords(status, body) {
  const answered = t("The server answered {status}.", { status });
  if (!body) return status ? answered : t("The network is not reachable.");
  const parts = [body.detail || body.title || answered];
  const errors = body.errors || body.fields;
  if (errors && typeof errors === "object") parts.push(...flatten(errors, ""));
  return parts.join(" ");
}

function flatten(errors, prefix) {
  const found = [];
  for (const [key, value] of Object.entries(errors)) {
    const at = prefix ? `${prefix}.${key}` : key;
    if (Array.isArray(value) && value.every((v) => typeof v === "string")) found.push(`${at}: ${value.join(" ")}`);
    else if (value && typeof value === "object") found.push(...flatten(value, at));
    else found.push(`${at}: ${value}`);
  }
  return found;
}
