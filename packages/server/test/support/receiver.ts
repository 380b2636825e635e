import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** A request received by the {@link Receiver}. */
export interface Received {
  method: string;
  url: URL;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** A real HTTP server on 127.0.0.1:0 recording requests; `failFirst` requests get 500. */
export interface Receiver {
  url: string;
  received: Received[];
  failFirst: number;
  /** Records requests on arrival but answers none until the returned function is called. */
  hold(): () => void;
  waitFor(count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  let seen = 0;
  const state: { failFirst: number; gate: Promise<void> | null } = { failFirst: 0, gate: null };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      seen += 1;
      if (seen <= state.failFirst) {
        res.statusCode = 500;
        res.end("fail");
        return;
      }
      received.push({ method: req.method ?? "", url: new URL(req.url ?? "/", "http://127.0.0.1"), headers: req.headers, body, at: Date.now() });
      void (state.gate ?? Promise.resolve()).then(() => {
        res.statusCode = 200;
        res.end("ok");
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    get failFirst() {
      return state.failFirst;
    },
    set failFirst(n: number) {
      state.failFirst = n;
      seen = 0;
    },
    hold() {
      let release: () => void = () => {};
      state.gate = new Promise<void>((r) => {
        release = r;
      });
      return () => {
        state.gate = null;
        release();
      };
    },
    async waitFor(count, timeoutMs = 10_000) {
      const start = Date.now();
      while (received.length < count) {
        if (Date.now() - start > timeoutMs) throw new Error(`expected ${count} requests, got ${received.length}`);
        await new Promise((r) => setTimeout(r, 20));
      }
      return received;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
}
