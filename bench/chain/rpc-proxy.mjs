// A JSON-RPC proxy that makes a local node look remote: plain node:http, every HTTP request (a single
// call or an ethers batch of calls) is held for `delayMs` and then forwarded to `upstream` as it came;
// the answer goes back unchanged. Used by bench/chain/run.mjs (in the runner's process, on core 0).
//
//   const proxy = await startRpcProxy({ upstream: "http://127.0.0.1:8545", delayMs: 50 });
//   proxy.url;          // http://127.0.0.1:<port>
//   proxy.delayMs = 0;  // e.g. while the benchmark sets up its users
//   proxy.requests;     // HTTP requests forwarded so far
//   await proxy.close();
import { request as httpRequest, createServer } from "node:http";

/**
 * @param {{ upstream: string, delayMs: number, host?: string }} options
 * @returns {Promise<{ url: string, delayMs: number, requests: number, close(): Promise<void> }>}
 */
export async function startRpcProxy({ upstream, delayMs, host = "127.0.0.1" }) {
  const target = new URL(upstream);
  const state = { url: "", delayMs, requests: 0, close: async () => undefined };
  const server = createServer((req, res) => {
    const chunks = [];
    req.on("data", (chunk) => chunks.push(chunk));
    req.on("end", () => {
      state.requests += 1;
      if (process.env.PROXY_DEBUG) console.error("[proxy]", req.method, req.url, chunks.length);
      const body = Buffer.concat(chunks);
      setTimeout(() => {
        const out = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: target.pathname,
            method: req.method,
            headers: { "content-type": req.headers["content-type"] ?? "application/json", "content-length": body.length },
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, { "content-type": answer.headers["content-type"] ?? "application/json" });
            answer.pipe(res);
          },
        );
        out.on("error", (e) => {
          if (process.env.PROXY_DEBUG) console.error("[proxy] upstream", e);
          if (!res.headersSent) res.writeHead(502);
          res.end();
        });
        out.end(body);
      }, state.delayMs);
    });
  });
  // Longer than the clients' keep-alive (Node 20's agent: 5 s), so a reused socket is never closed under a request.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise((resolve) => server.listen(0, host, resolve));
  const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
  state.url = `http://${host}:${port}`;
  state.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}
