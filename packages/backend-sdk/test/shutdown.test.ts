import type { Server } from "node:http";
import type { Socket } from "node:net";
import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlotgateBackend, silentLogger } from "../src/index.js";
import { type RunningServer, listen } from "./support/http-server.js";

/** A "service" on 127.0.0.1 whose authorize endpoint accepts the request and never answers. */
let hanging: Server;
let service: RunningServer;
let seen = 0;
let open = 0;
/** Sockets whose client side closed (FIN). */
const ended = new Set<Socket>();
/**
 * Sockets that carried a request. Node's fetch (undici) opens fresh idle connections in its pool after
 * an abort; those are the runtime's, not the SDK's, and close on their keep-alive timeout.
 */
const requestSockets = new Set<Socket>();

beforeAll(async () => {
  hanging = createServer((req) => {
    seen++;
    requestSockets.add(req.socket);
  });
  hanging.on("connection", (socket) => {
    open++;
    // The client closing its side (FIN) is what the SDK controls; the server keeps its half open.
    socket.on("end", () => ended.add(socket));
  });
  service = await listen(hanging);
});
afterAll(() => service.close());

const jwt = `e30.${btoa(JSON.stringify({ sub: "1", exp: Math.floor(Date.now() / 1000) + 3600 })).replace(/=+$/, "")}.sig`;

describe("shutdown with requests in flight", () => {
  it("rejects every call, aborts their authorize requests and leaves no socket or timer", async () => {
    const backend = new SlotgateBackend({
      authServerUrl: service.origin,
      clientId: "sg_unit",
      clientSecret: "unit-secret",
      redirectUri: "http://127.0.0.1:1/cb",
      logger: silentLogger,
    });
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === "Timeout").length;
    const timersBefore = timers();
    const calls = Array.from({ length: 5 }, () => backend.getSlotInfo(jwt, { timeout: 60_000 }).catch((e: { code: string }) => e.code));
    while (seen < 5) await new Promise((r) => setTimeout(r, 5));
    expect(open).toBeGreaterThanOrEqual(5);
    expect(ended.size).toBe(0);
    await backend.shutdown();
    expect(await Promise.all(calls)).toEqual(Array(5).fill("shutdown"));
    // The aborted requests' sockets are closed by the client: the server receives a FIN on each.
    const closed = () => [...requestSockets].filter((socket) => ended.has(socket)).length;
    for (let i = 0; i < 200 && closed() < 5; i++) await new Promise((r) => setTimeout(r, 5));
    expect(requestSockets.size).toBe(5);
    expect(closed()).toBe(5);
    expect(seen).toBe(5);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
  });
});
