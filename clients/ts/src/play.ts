/**
 * Plays a whole game against a live `galileo serve` through a client generated from docs/openapi.json
 * (`openapi-typescript` types, `openapi-fetch` calls), and follows the game's live stream with the
 * `eventsource` package: mid-game the stream's connection is dropped, and `eventsource` reconnects on
 * its own, sending `Last-Event-ID`. Every event must arrive exactly once and in order.
 *
 * Usage: node dist/src/play.js http://127.0.0.1:8000   (prints a JSON summary; exit 1 on any failure)
 */
import createClient from "openapi-fetch";
import { EventSource } from "eventsource";
import type { components, paths } from "../generated/api.js";

type Move = components["schemas"]["MovesOut"]["moves"][number];

const DROP_AFTER = 40; // events received before the connection is dropped

function fail(message: string): never {
  throw new Error(message);
}

/** A small deterministic generator (fixed seed): the same game every run. */
function rng(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
}

interface Connection {
  lastEventId: string | null; // the Last-Event-ID header eventsource sent
  versionWhenOpened: number; // the game's version as the player last saw it
}

async function main(base: string): Promise<void> {
  const api = createClient<paths>({ baseUrl: base });
  const created = await api.POST("/games", {
    body: { seats: [{ name: "Ada" }, { name: "Ben" }], seed: "typescript-client" },
  });
  if (!created.data) fail(`create: ${JSON.stringify(created.error)}`);
  const gameId = created.data.game_id;
  const tokens = created.data.seats.map((s) => s.token ?? fail(`seat ${s.seat} has no token`));
  const auth = (seat: number) => ({ Authorization: `Bearer ${tokens[seat] ?? fail(`no seat ${seat}`)}` });

  // The stream, as seat 0 sees it. A custom fetch adds the seat token (EventSource sends no headers of
  // its own), records what each connection asked for, and can cut the current connection short.
  let seen = 0; // the game's version as the player last saw it
  const connections: Connection[] = [];
  let drop: (() => void) | null = null;
  const streamFetch = async (url: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    headers.set("Authorization", auth(0).Authorization);
    connections.push({ lastEventId: headers.get("Last-Event-ID"), versionWhenOpened: seen });
    const response = await fetch(url, { ...init, headers });
    const body = response.body ?? fail("the stream has no body");
    const reader = body.getReader();
    let cut = false;
    let relay: ReadableStreamDefaultController<Uint8Array> | null = null;
    const wrapped = new ReadableStream<Uint8Array>({
      start(controller) {
        relay = controller;
      },
      async pull(controller) {
        try {
          const { done, value } = await reader.read();
          if (cut) return;
          if (done) controller.close();
          else controller.enqueue(value);
        } catch (error) {
          if (!cut) controller.error(error);
        }
      },
      cancel: (reason) => reader.cancel(reason),
    });
    drop = () => {
      cut = true;
      relay?.close(); // eventsource sees the connection end, and reconnects with Last-Event-ID
      void reader.cancel(); // and the server sees the client go
    };
    return new Response(wrapped, { status: response.status, headers: response.headers });
  };

  const received: number[] = [];
  let dropped = false;
  let ended: () => void = () => undefined;
  const end = new Promise<void>((resolve) => (ended = resolve));
  // after=0: the whole log first (a new stream without it starts at the head), then live events.
  const source = new EventSource(`${base}/games/${gameId}/stream?after=0`, { fetch: streamFetch });
  source.onmessage = (message) => {
    const item = JSON.parse(message.data) as components["schemas"]["EventItem"];
    if (String(item.version) !== message.lastEventId) fail(`event ${item.version} has id ${message.lastEventId}`);
    received.push(item.version);
    if (!dropped && received.length === DROP_AFTER) {
      dropped = true;
      (drop ?? fail("no connection to drop"))();
    }
  };
  source.addEventListener("end", () => ended());
  source.onerror = () => undefined; // a dropped connection: eventsource reconnects by itself

  // Play both seats: read the moves of the seat to act, post one of them back unchanged.
  const pick = rng(32);
  let decisions = 0;
  for (;;) {
    const listing = await api.GET("/games/{game_id}/moves", {
      params: { path: { game_id: gameId } },
      headers: auth(0),
    });
    if (!listing.data) fail(`moves: ${JSON.stringify(listing.error)}`);
    let moves = listing.data;
    seen = moves.version;
    if (moves.to_act === null) break;
    if (moves.to_act !== 0) {
      const other = await api.GET("/games/{game_id}/moves", {
        params: { path: { game_id: gameId } },
        headers: auth(moves.to_act),
      });
      moves = other.data ?? fail(`moves: ${JSON.stringify(other.error)}`);
    }
    const move: Move = moves.moves[pick(moves.moves.length)] ?? fail("the seat to act has no move");
    const answer = await api.POST("/games/{game_id}/commands", {
      params: { path: { game_id: gameId } },
      headers: auth(moves.seat),
      body: { command: move, expected_version: moves.version, command_id: `ts-${moves.version}` },
    });
    if (!answer.data) fail(`command: ${JSON.stringify(answer.error)}`);
    seen = answer.data.version;
    decisions += 1;
  }

  const timeout = setTimeout(() => fail("the stream did not end"), 60_000);
  await end;
  clearTimeout(timeout);
  source.close();

  const board = await api.GET("/games/{game_id}", { params: { path: { game_id: gameId } } });
  if (!board.data) fail(`board: ${JSON.stringify(board.error)}`);
  const head = board.data.version;
  const expected = Array.from({ length: head }, (_, i) => i + 1);
  if (JSON.stringify(received) !== JSON.stringify(expected)) {
    fail(`events ${JSON.stringify(received)} are not 1..${head} once each in order`);
  }
  const verify = await api.GET("/games/{game_id}/verify", { params: { path: { game_id: gameId } } });
  if (!verify.data?.ok) fail(`verify: ${JSON.stringify(verify.data ?? verify.error)}`);
  console.log(JSON.stringify({ game_id: gameId, decisions, head, received: received.length, connections }));
}

main(process.argv[2] ?? "http://127.0.0.1:8000").catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
