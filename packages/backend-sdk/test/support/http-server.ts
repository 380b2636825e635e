import { type IncomingMessage, type Server, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";

/** A real HTTP server on 127.0.0.1 with a random port. */
export interface RunningServer {
  port: number;
  origin: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1:0 and returns the port; `close` also drops keep-alive sockets. */
export async function listen(server: Server): Promise<RunningServer> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A plain node:http server routing every request to `handler`. */
export function nodeServer(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<RunningServer> {
  return listen(createServer(handler));
}

/** Reserves a free port on 127.0.0.1 (closed again before returning). */
export async function freePort(): Promise<number> {
  const s = await nodeServer((_req, res) => res.end());
  await s.close();
  return s.port;
}

/**
 * A WHATWG fetch handler (the shape of Bun, Deno, Workers and Next.js route handlers) on a real
 * 127.0.0.1 server, through `@hono/node-server`: the handler gets a web `Request`, its `Response` is sent.
 */
export async function fetchServer(fetch: (request: Request) => Response | Promise<Response>): Promise<RunningServer> {
  const server = await new Promise<Server>((resolve) => {
    const s = serve({ fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s as Server));
  });
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
