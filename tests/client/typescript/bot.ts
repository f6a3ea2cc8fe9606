// An outsider's bot, written from /openapi.json alone: its types come from openapi-typescript
// (schema.d.ts, generated from the live server), its calls from openapi-fetch, and it must
// compile under `tsc --strict` without one `any`. It plays one hand of classic against the
// easy computer and prints what happened as JSON.
import createClient from "openapi-fetch";
import type { components, paths } from "./schema.js";
import { SERVER } from "./server.js";

type Schemas = components["schemas"];
type RoomView = Schemas["RoomView"];
type Move = Schemas["MoveRequest"]["move"];
type ErrorBody = Schemas["ErrorBody"];

// Closed sets stay closed: each of these fails to compile once its field, in any schema,
// becomes a free string again (docs/api.md, "One enum per concept").
type Closed<T> = string extends T ? false : true;
type FieldOf<K extends string> = {
  [N in keyof Schemas]: K extends keyof Schemas[N] ? Schemas[N][K] : never;
}[keyof Schemas];
export const closed: {
  code: Closed<Schemas["ErrorCode"]>;
  variant: Closed<NonNullable<FieldOf<"variant">>>;
  mode: Closed<NonNullable<FieldOf<"mode">>>;
  phase: Closed<NonNullable<FieldOf<"phase">>>;
  bot: Closed<NonNullable<FieldOf<"bot">>>;
  stand_in: Closed<NonNullable<FieldOf<"stand_in">>>;
} = { code: true, variant: true, mode: true, phase: true, bot: true, stand_in: true };

const api = createClient<paths>({ baseUrl: SERVER });

function fail(error: ErrorBody | undefined, what: string): never {
  const why = error ? `${error.error.code}: ${error.error.message}` : "no error body";
  throw new Error(`${what} refused (${why})`);
}

/** A legal move from the view's own `legal`: draw, lay what can be laid, discard. */
function choose(view: RoomView): Move {
  const legal = view.legal;
  if (!legal) throw new Error("not this seat's move");
  const source = legal.draw[0];
  if (source) return { type: "draw", source };
  const meld = legal.melds[0];
  if (meld) return { type: "meld", melds: [meld] };
  const layoff = legal.layoffs[0];
  if (layoff) return { type: "layoff", meld: layoff.meld, cards: [layoff.card], end: layoff.end };
  const card = legal.discard[legal.discard.length - 1];
  if (!card) throw new Error("no legal move");
  return { type: "discard", card };
}

async function main(): Promise<void> {
  const created = await api.POST("/api/rooms", {
    body: { variant: "classic", mode: "computer", name: "TS bot", bots: { "1": "easy" } },
  });
  if (!created.data) fail(created.error, "create_room");
  const { room, token } = created.data;
  const headers = { Authorization: `Bearer ${token}` };
  const params = { path: { room } };

  const first = await api.GET("/api/rooms/{room}/state", { params, headers });
  if (!first.data) fail(first.error, "get_state");
  let view: RoomView = first.data;
  let moves = 0;
  while (!view.hand_result) {
    if (view.turn !== view.seat || !view.legal) throw new Error(`not my turn in ${view.phase}`);
    const answer = await api.POST("/api/rooms/{room}/moves", {
      params,
      headers,
      body: { move: choose(view), version: view.version },
    });
    if (answer.error) {
      // A stale version carries the current view: resync from it (docs/api.md).
      if (answer.error.error.code !== "stale_version" || !answer.error.state) {
        fail(answer.error, "post_move");
      }
      view = answer.error.state;
      continue;
    }
    // 200 with the view; 204 (text, empty) only for `Prefer: return=minimal`, not sent here.
    if (!answer.data || typeof answer.data === "string") throw new Error("post_move: no view");
    view = answer.data;
    moves += 1;
    if (moves > 500) throw new Error("the hand does not end");
  }
  const variant: Schemas["VariantName"] = view.variant;
  console.log(JSON.stringify({ moves, variant, reason: view.hand_result.reason }));
}

await main();
