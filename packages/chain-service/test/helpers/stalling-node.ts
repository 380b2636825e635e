import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";

/** One JSON-RPC request as a client sends it. */
export interface RpcRequest {
  jsonrpc: "2.0";
  id: number | string;
  method: string;
  params?: unknown[];
}

/** A hold {@link StallingNode.holdNth} placed: which request it held, and how to let it go. */
export interface Hold {
  /** Resolves with the held request's method once a request is held. */
  held: Promise<string>;
  /** Forwards the held request (and any later one) to the node. */
  release(): void;
}

/**
 * A JSON-RPC proxy on 127.0.0.1 in front of a real node (Anvil) that holds one request of its choosing
 * until it is released, as a node that stops answering one wallet's calls would. Batches are split:
 * each request of a batch is forwarded (or held) on its own, so holding one never holds the others.
 */
export interface StallingNode {
  url: string;
  /** Holds the `nth` request from now that `matches`; the others pass. */
  holdNth(nth: number, matches: (request: RpcRequest) => boolean): Hold;
  close(): Promise<void>;
}

function body(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Starts a {@link StallingNode} in front of the node at `upstream`. */
export async function startStallingNode(upstream: string): Promise<StallingNode> {
  let rule: { nth: number; seen: number; matches: (request: RpcRequest) => boolean; gate: Promise<void>; onHeld: (method: string) => void } | null = null;

  const forward = async (request: RpcRequest): Promise<unknown> => {
    const current = rule;
    if (current?.matches(request)) {
      current.seen += 1;
      if (current.seen === current.nth) {
        current.onHeld(request.method);
        await current.gate;
      }
    }
    const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
    return answer.json();
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    void (async () => {
      try {
        const parsed = JSON.parse(await body(req)) as RpcRequest | RpcRequest[];
        const answer = Array.isArray(parsed) ? await Promise.all(parsed.map(forward)) : await forward(parsed);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(answer));
      } catch (error) {
        res.writeHead(502).end(String(error));
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    holdNth(nth, matches) {
      let open: () => void = () => undefined;
      let onHeld: (method: string) => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        open = resolve;
      });
      const held = new Promise<string>((resolve) => {
        onHeld = resolve;
      });
      const placed = { nth, seen: 0, matches, gate, onHeld };
      rule = placed;
      return {
        held,
        release: () => {
          if (rule === placed) rule = null;
          open();
        },
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
