// A match's write token stays on this device: in localStorage, one entry per match. A "continue
// on another device" link carries it in the URL fragment (#token=…), which browsers never send
// to a server; opening such a link stores it and takes it out of the address bar at once.

const KEY = (matchId) => `tabletape.token.${matchId}`;

/** The token this device keeps for a match, or null. */
export function tokenFor(matchId) {
  try {
    return localStorage.getItem(KEY(matchId));
  } catch {
    return null;
  }
}

/** Keep a match's token on this device. */
export function keepToken(matchId, token) {
  localStorage.setItem(KEY(matchId), token);
}

/** Store a token carried in the address's fragment and remove it from the address bar. */
export function takeFromFragment(matchId) {
  const fragment = new URLSearchParams(window.location.hash.replace(/^#/, ""));
  const token = fragment.get("token");
  if (!token) return false;
  keepToken(matchId, token);
  history.replaceState(history.state, "", window.location.pathname + window.location.search);
  return true;
}

/** The link that opens this match's recorder on another device, token included. */
export function handOverLink(matchId, token) {
  const path = `/matches/${encodeURIComponent(matchId)}/record`;
  return `${window.location.origin}${path}#token=${encodeURIComponent(token)}`;
}
