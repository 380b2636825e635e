import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { appPrototypes } from "../../src/platform/http/app-prototypes.js";

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

/** A server with the classes, an app whose route answers what Express's prototypes give it, and a log of what each request was born with. */
async function rig(adopt: boolean) {
  const prototypes = appPrototypes();
  const server = createServer({ IncomingMessage: prototypes.IncomingMessage, ServerResponse: prototypes.ServerResponse });
  servers.push(server);
  const app = express();
  app.set("trust proxy", "loopback");
  app.get("/who", (req, res) => {
    // req.ip reads app settings through req.app; res.json and res.status come from app.response.
    res.status(201).json({ ip: req.ip, path: req.path, app: req.app === app });
  });
  const born: Array<{ req: boolean; res: boolean }> = [];
  // Before the app sees them: which prototype did Node create them with?
  server.on("request", (req: IncomingMessage, res: ServerResponse) =>
    born.push({ req: Object.getPrototypeOf(req) === app.request, res: Object.getPrototypeOf(res) === app.response }),
  );
  if (adopt) prototypes.adopt(app);
  server.on("request", app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, born, app };
}

describe("appPrototypes", () => {
  it("creates every request and response with the app's own prototypes, so Express has nothing to swap", async () => {
    const { url, born, app } = await rig(true);
    const res = await fetch(`${url}/who`, { headers: { "x-forwarded-for": "203.0.113.7" } });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ip: "203.0.113.7", path: "/who", app: true });
    expect(born).toEqual([{ req: true, res: true }]);
    // The adopted prototypes still lead to Express's and Node's methods.
    expect(typeof app.request.get).toBe("function");
    expect(typeof app.response.json).toBe("function");
    expect(app.request.app).toBe(app);
  });

  it("leaves requests that arrive before adopt() to Express's usual prototype swap", async () => {
    const { url, born } = await rig(false);
    const res = await fetch(`${url}/who`);
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({ ip: "127.0.0.1", path: "/who", app: true });
    expect(born).toEqual([{ req: false, res: false }]);
  });
});
