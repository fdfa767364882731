// Sharing the step shown: the system's share sheet on a phone (Web Share API), else the link
// copied; and the BG Stats link of a finished match, asked of the API when it is followed.

import { getJSON } from "./api.js";
import { put } from "./dom.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

function said(text) {
  put($("share-status"), text);
}

/** Share the page's URL (which names the step shown). */
export async function share() {
  const url = window.location.href;
  const phone = window.matchMedia?.("(pointer: coarse)").matches;
  if (navigator.share && phone) {
    try {
      await navigator.share({ title: document.title, url });
      return;
    } catch (error) {
      if (error.name === "AbortError") return; // the reader closed the share sheet
    }
  }
  try {
    await navigator.clipboard.writeText(url);
    said(t("Link copied."));
  } catch {
    said(t("Copy this link: {url}", { url })); // no clipboard here (an http page that is not localhost)
  }
}

/** Follow BG Stats' createPlay link of the match (the API builds it). */
export async function openBgStats(event) {
  event.preventDefault();
  try {
    const { url } = await getJSON(event.currentTarget.href);
    window.location.href = url;
  } catch (error) {
    said(t("BG Stats could not be opened: {reason}", { reason: error.message }));
  }
}
