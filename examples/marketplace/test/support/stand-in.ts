import { type IncomingMessage, type Server, type ServerResponse, createServer, request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";

/** A request the stand-in answered itself. */
export interface StandInRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** How the stand-in answers one route: status and JSON body. */
export type StandInAnswer = { status: number; body: unknown };

/**
 * A real HTTP server on 127.0.0.1 in front of the reference server. It answers itself only the routes a
 * test gives it (the slot endpoints of issue 16 the reference server does not serve yet, or a planned
 * refusal) and forwards every other request, unchanged, to `upstream`.
 */
export interface StandIn {
  origin: string;
  /** The service it forwards to (set once the reference server is up). */
  upstream: string;
  /** Requests it answered itself, in order. */
  answered: StandInRequest[];
  /** Answers requests whose `METHOD path` (path without the query) matches `route` with `answer`. */
  route(route: RegExp, answer: (req: StandInRequest) => StandInAnswer): void;
  close(): Promise<void>;
}

/**
 * Starts a {@link StandIn}.
 *
 * @example
 * ```ts
 * const standIn = await startStandIn();
 * standIn.route(/^GET \/v1\/slots$/, () => ({ status: 200, body: { success: true, slots: [] } }));
 * ```
 */
export async function startStandIn(): Promise<StandIn> {
  const routes: Array<{ route: RegExp; answer: (req: StandInRequest) => StandInAnswer }> = [];
  const answered: StandInRequest[] = [];
  const state = { upstream: "" };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const path = (req.url ?? "/").split("?")[0]!;
      const own = [...routes].reverse().find((r) => r.route.test(`${req.method} ${path}`));
      if (own) {
        const seen: StandInRequest = { method: req.method ?? "GET", path: req.url ?? "/", authorization: req.headers.authorization, body: raw.length ? JSON.parse(raw.toString("utf8")) : undefined };
        answered.push(seen);
        const { status, body } = own.answer(seen);
        res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
        return;
      }
      const target = new URL(state.upstream);
      const forward = httpRequest(
        { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      forward.on("error", () => res.writeHead(502).end());
      forward.end(raw);
    });
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get upstream() {
      return state.upstream;
    },
    set upstream(url: string) {
      state.upstream = url;
    },
    answered,
    route(route, answer) {
      routes.push({ route, answer });
    },
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}
