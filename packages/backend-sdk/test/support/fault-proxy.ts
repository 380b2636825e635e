import { request as httpRequest } from "node:http";
import { type RunningServer, nodeServer } from "./http-server.js";

/** A request that reached the proxy. */
export interface ProxiedRequest {
  method: string;
  path: string;
  idempotencyKey: string | undefined;
}

/**
 * What the proxy does with one request: pass it on, pass it on but lose the answer (the upstream
 * handled it; the client's connection is destroyed before the answer reaches it), or answer itself
 * without passing it on.
 */
export type ProxyAction = "forward" | "lose_answer" | { status: number; headers?: Record<string, string>; body?: unknown };

/** A real HTTP proxy on 127.0.0.1 in front of `upstream`, with faults planned per request. */
export interface FaultProxy extends RunningServer {
  /** Every request received, in order. */
  readonly requests: ProxiedRequest[];
  /** The next requests matching `match` get these actions, one each, in order; others are forwarded. */
  plan(match: (r: ProxiedRequest) => boolean, ...actions: ProxyAction[]): void;
}

/**
 * Starts a fault-injecting proxy in front of a real server, so a client's retries can be watched
 * end to end: which requests were sent, with which `Idempotency-Key`, and what the server did with them.
 *
 * @example
 * ```ts
 * const proxy = await faultProxy(service.url);
 * proxy.plan((r) => r.path.endsWith("/user_buy_content_token"), "lose_answer");
 * ```
 */
export async function faultProxy(upstream: string): Promise<FaultProxy> {
  const target = new URL(upstream);
  const requests: ProxiedRequest[] = [];
  const plans: Array<{ match: (r: ProxiedRequest) => boolean; actions: ProxyAction[] }> = [];
  const server = await nodeServer((req, res) => {
    const seen: ProxiedRequest = {
      method: req.method ?? "GET",
      path: req.url ?? "/",
      idempotencyKey: typeof req.headers["idempotency-key"] === "string" ? req.headers["idempotency-key"] : undefined,
    };
    requests.push(seen);
    const plan = plans.find((p) => p.actions.length > 0 && p.match(seen));
    const action = plan?.actions.shift() ?? "forward";
    if (typeof action === "object") {
      req.resume();
      res.writeHead(action.status, { "content-type": "application/json", ...action.headers });
      res.end(action.body === undefined ? "" : JSON.stringify(action.body));
      return;
    }
    const headers = { ...req.headers, host: target.host };
    const upstreamReq = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (upstreamRes) => {
      const chunks: Buffer[] = [];
      upstreamRes.on("data", (c: Buffer) => chunks.push(c));
      upstreamRes.on("end", () => {
        if (action === "lose_answer") {
          // The upstream did the work; the client never hears of it.
          req.socket.destroy();
          return;
        }
        res.writeHead(upstreamRes.statusCode ?? 502, upstreamRes.headers);
        res.end(Buffer.concat(chunks));
      });
    });
    upstreamReq.on("error", () => req.socket.destroy());
    req.pipe(upstreamReq);
  });
  return {
    ...server,
    requests,
    plan(match, ...actions) {
      plans.push({ match, actions });
    },
  };
}
