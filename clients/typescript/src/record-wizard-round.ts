// Records one Wizard round with a client generated from tabletape's openapi.yaml (openapi-typescript
// types, openapi-fetch calls), compiled with `tsc --strict` and without a non-null assertion: the
// answers' required members and each game's own types carry it. Prints what it recorded as JSON.
// Usage: node dist/record-wizard-round.js http://127.0.0.1:8000
import createClient from "openapi-fetch";

import type { components, paths } from "./generated/tabletape.js";

type Schemas = components["schemas"];
type GameView = Schemas["StateOut"]["state"];

// A view's members tell the games apart: only Wizard's has `trump_card`.
function isWizard(state: GameView): state is Schemas["WizardView"] {
  return "trump_card" in state;
}

async function main(baseUrl: string): Promise<void> {
  const client = createClient<paths>({ baseUrl });
  const created = await client.POST("/v1/matches", {
    body: {
      game: "wizard",
      players: ["ann", "bob", "cy"],
      setup: { first_dealer: "ann" },
      options: { canadian_rule: true },
    },
  });
  if (created.data === undefined) {
    throw new Error(`the match was not created: ${created.response.status}`);
  }
  const { id, token } = created.data;
  const matchId = { path: { match_id: id } };

  const bobBids: Schemas["WizardBidAction"] = { type: "bid", player: "bob", tricks: 1 };
  const round: Schemas["WizardAction"][] = [
    { type: "start_round", trump_card: "7H" },
    bobBids,
    { type: "bid", player: "cy", tricks: 0 },
    { type: "bid", player: "ann", tricks: 1 },
    { type: "play", player: "bob", card: "AS" },
    { type: "play", player: "cy", card: "KS" },
    { type: "play", player: "ann", card: "3H" },
  ];
  const events: string[] = [];
  let after: GameView = created.data.state;
  for (const action of round) {
    const written = await client.POST("/v1/matches/{match_id}/actions", {
      params: matchId,
      body: action,
      headers: { Authorization: `Bearer ${token}` },
    });
    if (written.data === undefined) {
      throw new Error(`${action.type} was refused: ${written.error?.detail ?? written.response.status}`);
    }
    events.push(...written.data.events.map((event) => event.type));
    after = written.data.state;
  }
  if (!isWizard(after)) {
    throw new Error("a Wizard match answered with another game's view");
  }

  // Without the token a write is refused, with a problem a person can read.
  const refused = await client.POST("/v1/matches/{match_id}/actions", { params: matchId, body: bobBids });
  const shown = await client.GET("/v1/matches/{match_id}/state", { params: matchId });
  if (shown.data === undefined) {
    throw new Error(`no state: ${shown.response.status}`);
  }
  console.log(
    JSON.stringify({
      id,
      version: shown.data.version,
      events,
      phase: after.phase,
      round: after.round,
      totals: after.totals,
      bids: after.bids,
      refused: { status: refused.response.status, code: refused.error?.code ?? null },
    }),
  );
}

const baseUrl = process.argv[2];
if (baseUrl === undefined) {
  console.error("usage: node dist/record-wizard-round.js <tabletape base URL>");
  process.exit(2);
}
await main(baseUrl);
