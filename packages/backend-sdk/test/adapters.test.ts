import type { Server } from "node:http";
import type { MockService } from "@slotgate/mock-service";
import express from "express";
import Fastify, { type FastifyInstance } from "fastify";
import { Hono } from "hono";
import Koa from "koa";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type SlotgateBackend, SlotgateBackendError } from "../src/index.js";
import { type RunningServer, fetchServer, listen, nodeServer } from "./support/http-server.js";
import { backendFor, captureAuthorize, msw, postCallback, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";

const PATH = "/slotgate/callback";

/** Each framework mounts handleCallback on PATH for POST and GET, on a real 127.0.0.1 server. */
const frameworks: Record<string, (getBackend: () => SlotgateBackend) => Promise<RunningServer>> = {
  "WHATWG Request (fetch handler)": (b) =>
    fetchServer((request) => (new URL(request.url).pathname === PATH ? b().handleCallback(request) : new Response(null, { status: 404 }))),
  "WHATWG Request (unbound, as a Next.js route export)": (b) =>
    fetchServer((request) => {
      // export const POST = slotgate.handleCallback: Next.js calls it with (request, { params })
      const POST: (request: Request, context: { params: Promise<Record<string, string>> }) => Promise<Response> = b().handleCallback;
      return POST(request, { params: Promise.resolve({}) });
    }),
  "Hono (c.req.raw)": async (b) => {
    const app = new Hono();
    app.on(["GET", "POST"], PATH, (c) => b().handleCallback(c.req.raw));
    return fetchServer(app.fetch);
  },
  "node:http": (b) =>
    nodeServer((req, res) => {
      if (req.url?.startsWith(PATH)) b().handleCallback(req, res);
      else res.writeHead(404).end();
    }),
  "Express 5": async (b) => {
    const app = express();
    const router = express.Router();
    router.all("/callback", (req, res) => b().handleCallback(req, res));
    app.use("/slotgate", router); // mounted on a sub-router: req.url is rewritten, originalUrl is not
    return listen(app.listen(0, "127.0.0.1") as unknown as Server);
  },
  Fastify: async (b) => {
    const app: FastifyInstance = Fastify();
    app.route({ method: ["GET", "POST"], url: PATH, handler: (req, reply) => b().handleCallback(req, reply) });
    await app.listen({ port: 0, host: "127.0.0.1" });
    const port = (app.server.address() as { port: number }).port;
    return { port, origin: `http://127.0.0.1:${port}`, close: () => app.close() };
  },
  "Koa (ctx)": async (b) => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.path === PATH && (ctx.method === "POST" || ctx.method === "GET")) b().handleCallback(ctx);
      else await next();
    });
    return listen(app.listen(0, "127.0.0.1"));
  },
  "Express 5 (unbound method)": async (b) => {
    const app = express();
    app.all(PATH, (req, res, next) => {
      const handler = b().handleCallback; // passed as is, without its instance
      handler(req, res);
      void next;
    });
    return listen(app.listen(0, "127.0.0.1") as unknown as Server);
  },
  "Koa (ctx, next) unbound": async (b) => {
    const app = new Koa();
    app.use((ctx, next) => {
      const handler = b().handleCallback; // as a router would call it: (ctx, next), no instance
      return ctx.path === PATH ? handler(ctx, next) : next();
    });
    return listen(app.listen(0, "127.0.0.1"));
  },
  "Koa (ctx.request, ctx.response)": async (b) => {
    const app = new Koa();
    app.use(async (ctx, next) => {
      if (ctx.path === PATH) b().handleCallback(ctx.request, ctx.response);
      else await next();
    });
    return listen(app.listen(0, "127.0.0.1"));
  },
};

beforeAll(() => startMsw());
afterAll(() => msw.close());

for (const [name, mount] of Object.entries(frameworks)) {
  describe(`handleCallback on ${name}`, () => {
    let server: RunningServer;
    let mock: MockService;
    let backend: SlotgateBackend;
    let redirectUri: string;

    beforeAll(async () => {
      server = await mount(() => backend);
      redirectUri = `${server.origin}${PATH}`;
    });
    afterEach(async () => {
      await backend.shutdown();
    });
    afterAll(async () => {
      await server.close();
    });

    it("receives the service's POST callback and getSlotInfo resolves", async () => {
      mock = await simulatedService(redirectUri);
      backend = backendFor(mock);
      const info = await backend.getSlotInfo(await userJwt(mock));
      expect(info.id).toBe(mock.fixtures.endUser.user_id);
      const delivery = mock.state.callbacks.at(-1)!;
      // One attempt, answered 200 (the service records the answer after the exchange may have finished).
      for (let i = 0; i < 200 && delivery.status === undefined; i++) await new Promise((r) => setTimeout(r, 5));
      expect(delivery.status).toBe(200);
      expect(delivery.attempts).toBe(1);
    });

    it("answers 200 with JSON at once, before the code exchange finishes, for POST and GET", async () => {
      mock = await simulatedService(redirectUri);
      backend = backendFor(mock);
      const capture = captureAuthorize(mock);
      // get_token that answers only when released: the callback must not wait for it.
      let releaseExchange: () => void = () => {};
      const { http, HttpResponse } = await import("msw");
      msw.use(
        http.post(`${mock.baseUrl}/v1/oauth-meta/get_token`, async () => {
          await new Promise<void>((r) => {
            releaseExchange = r;
          });
          return HttpResponse.json({ success: false, error: "invalid_grant", message: "m" }, { status: 400 });
        }),
      );
      for (const method of ["POST", "GET"]) {
        const pending = backend.getSlotInfo(await userJwt(mock)).catch((e: SlotgateBackendError) => e);
        const state = await capture.next();
        const res = await postCallback(redirectUri, { state, code: "some-code", success: "1" }, method);
        expect(res.status).toBe(200);
        expect(res.headers.get("content-type")).toMatch(/^application\/json/);
        expect(await res.json()).toEqual({ success: true });
        expect(backend.pendingCount).toBe(1);
        releaseExchange();
        const err = await pending;
        expect(err).toBeInstanceOf(SlotgateBackendError);
        expect((err as SlotgateBackendError).code).toBe("token_exchange_error");
      }
    });

    it("answers 200 to a callback with an unknown state or no query", async () => {
      mock = await simulatedService(redirectUri);
      backend = backendFor(mock);
      expect((await postCallback(redirectUri, { state: "Z".repeat(43), code: "x", success: "1" })).status).toBe(200);
      expect((await fetch(redirectUri, { method: "POST" })).status).toBe(200);
    });
  });
}

describe("handleCallback arguments", () => {
  it("throws INVALID_ARGUMENT for an object that is not a response", async () => {
    const mock = await simulatedService("http://127.0.0.1:1/cb");
    const backend = backendFor(mock);
    expect(() => backend.handleCallback({ url: "/cb" }, {} as never)).toThrowError(SlotgateBackendError);
    expect(() => backend.handleCallback({ url: "/cb" }, null as never)).toThrowError(/INVALID|invalid argument/);
  });
});
