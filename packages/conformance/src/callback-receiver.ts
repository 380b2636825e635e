import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ConformanceError } from "./errors.js";

/** One request the receiver got. */
export interface ReceivedCallback {
  method: string;
  path: string;
  query: Record<string, string>;
  body: string;
}

/** A real HTTP server on 127.0.0.1 that plays the backend's authorize-callback route. */
export interface CallbackReceiver {
  /** `http://127.0.0.1:<port>/slotgate/callback`. */
  readonly url: string;
  readonly received: ReceivedCallback[];
  /** Resolves with the first callback whose `state` query matches (already received or arriving within the timeout). */
  waitFor(state: string, timeoutMs?: number): Promise<ReceivedCallback>;
  /** Whether any callback with this state arrived so far. */
  has(state: string): boolean;
  close(): Promise<void>;
}

/**
 * Starts a callback receiver on 127.0.0.1 with an ephemeral port. It answers 200 to any method at once,
 * as the spec requires of the backend's callback route.
 *
 * @example
 * ```ts
 * const receiver = await startCallbackReceiver();
 * const cb = await receiver.waitFor("state-1");
 * await receiver.close();
 * ```
 */
export async function startCallbackReceiver(): Promise<CallbackReceiver> {
  const received: ReceivedCallback[] = [];
  const waiters: { state: string; resolve: (cb: ReceivedCallback) => void }[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://127.0.0.1");
      const callback: ReceivedCallback = {
        method: req.method ?? "",
        path: url.pathname,
        query: Object.fromEntries(url.searchParams),
        body: Buffer.concat(chunks).toString("utf8"),
      };
      received.push(callback);
      res.writeHead(200, { "Content-Type": "application/json" }).end('{"received":true}');
      for (let i = waiters.length - 1; i >= 0; i--) {
        const waiter = waiters[i]!;
        if (waiter.state === callback.query["state"]) {
          waiters.splice(i, 1);
          waiter.resolve(callback);
        }
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/slotgate/callback`,
    received,
    has: (state) => received.some((cb) => cb.query["state"] === state),
    waitFor(state, timeoutMs = 5000) {
      const done = received.find((cb) => cb.query["state"] === state);
      if (done) return Promise.resolve(done);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const index = waiters.indexOf(waiter);
          if (index >= 0) waiters.splice(index, 1);
          reject(new ConformanceError("callback_timeout", `No authorize callback with state ${state} within ${timeoutMs} ms.`));
        }, timeoutMs);
        const waiter = {
          state,
          resolve: (cb: ReceivedCallback) => {
            clearTimeout(timer);
            resolve(cb);
          },
        };
        waiters.push(waiter);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
      }),
  };
}
