// Words both a game's board and the recorder say, kept apart from the boards so that the recorder
// of one game fetches no other game's board: how a match ended or was decided, and the names of
// The Other Hat Trick's tricks.

import { t } from "../i18n.js";

/** The Other Hat Trick's tricks by the names printed on the cards (the state keeps their ids). */
export const TRICKS = Object.freeze({
  "hungry-rabbit": t("The Hungry Rabbit"),
  "bunch-of-carrots": t("The Bunch of Carrots"),
  "vegetable-patch": t("The Vegetable Patch"),
  "rabbit-that-didnt-like-carrots": t("The Rabbit That Didn't Like Carrots"),
  "pair-of-rabbits": t("The Pair of Rabbits"),
  "vegetable-hat-trick": t("The Vegetable Hat Trick"),
  "carrot-hat-trick": t("The Carrot Hat Trick"),
  "slightly-easier-hat-trick": t("The Slightly Easier Hat Trick"),
  "hat-trick": t("The Hat Trick"),
  "other-hat-trick": t("The Other Hat Trick"),
});

/** A trick's name as printed on its card (the id of a trick the catalogs do not know). */
export function trickName(id) {
  return TRICKS[id] || id;
}

/** How a match of The Other Hat Trick ended (`ended_by`), in words. */
export const ENDINGS = Object.freeze({ performed: t("The Other Hat Trick was performed"), three_failures: t("three players in a row failed The Other Hat Trick") });

/** How a Hat Trick match ended (`end`), in words. */
export const ENDS = Object.freeze({ target: t("a player won the cards to win"), deck_exhausted: t("the deck ran out") });

/** What decided a Hats match (`decided_by`), in words. */
export const DECIDED = Object.freeze({ total: t("the highest total"), black_hats: t("the most black hats"), cookie: t("the last cookie"), shared: t("nothing: the win is shared") });
