/**
 * The slot calls of SlotgateBackend (listSlots, openSlot, activateSlot, slot) against the simulated
 * service (@slotgate/mock-service over MSW); e2e.slots.server.test.ts runs the same journey against the
 * reference server.
 */
import type { MockService } from "@slotgate/mock-service";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ContentTokenClient, type SlotgateBackend, type SlotgateBackendError } from "../src/index.js";
import { type RunningServer, nodeServer } from "./support/http-server.js";
import { backendFor, countRequests, msw, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";

let server: RunningServer;
let mock: MockService;
let backend: SlotgateBackend;
const cuid = "sdk-slots-mock";

beforeAll(async () => {
  startMsw();
  server = await nodeServer((req, res) => backend.handleCallback(req, res));
});

afterEach(async () => {
  msw.events.removeAllListeners();
  await backend?.shutdown();
});

afterAll(async () => {
  msw.close();
  await server.close();
});

/** A fresh simulated service whose backend client registered `cuid`, and a backend for it. */
async function fresh(): Promise<{ jwt: string; userId: string }> {
  mock = await simulatedService(`${server.origin}/slotgate/callback`);
  const c = mock.fixtures.backendClient;
  await new ContentTokenClient({ authServerUrl: mock.baseUrl, clientId: c.client_id, clientSecret: c.client_secret }).registerProvider({
    cuid,
    release_per: 10,
    owner_addr: "0x00000000000000000000000000000000000d3a41",
  });
  backend = backendFor(mock, { statusSync: { attempts: 1 } });
  return { jwt: await userJwt(mock), userId: mock.fixtures.endUser.user_id };
}

async function rejection(promise: Promise<unknown>): Promise<SlotgateBackendError> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: SlotgateBackendError) => error,
  );
}

describe("SlotgateBackend slot calls against the simulated service", () => {
  it("opens, lists and activates a user's slots; activation waits for logout; slot() reads one without a token", async () => {
    const { jwt, userId } = await fresh();
    expect((await backend.listSlots({ accessToken: jwt, cuid })).slots).toEqual([]);

    const { slot: first } = await backend.openSlot({ accessToken: jwt, cuid });
    expect(first).toMatchObject({ cuid, meta_idx: 0, state: "active", owner_user_id: userId, tr_cnt: 0, registered: true });
    const { slot: second } = await backend.openSlot({ accessToken: jwt, cuid });
    expect(second).toMatchObject({ cuid, meta_idx: 1, state: "sleeping" });
    expect(second.slot).not.toBe(first.slot);
    expect((await backend.listSlots({ accessToken: jwt, cuid })).slots.map((s) => [s.meta_idx, s.state])).toEqual([
      [0, "active"],
      [1, "sleeping"],
    ]);

    expect((await backend.statusLogin({ accessToken: jwt, userId })).ok).toBe(true);
    const refused = await rejection(backend.activateSlot({ accessToken: jwt, cuid, metaIdx: second.meta_idx }));
    expect([refused.code, refused.error, refused.serviceStatus]).toEqual(["service_error", "logout_required", 409]);

    expect((await backend.statusLogout({ accessToken: jwt, userId })).ok).toBe(true);
    const { active } = await backend.activateSlot({ accessToken: jwt, cuid, metaIdx: second.meta_idx });
    expect(active).toMatchObject({ meta_idx: second.meta_idx, slot: second.slot, state: "active" });

    const { slot: read } = await backend.slot(cuid, first.meta_idx);
    expect(read).toMatchObject({ cuid, meta_idx: first.meta_idx, slot: first.slot, state: "sleeping", owner_user_id: userId });
    const unknown = await rejection(backend.slot(cuid, 987_654));
    expect([unknown.code, unknown.error, unknown.serviceStatus]).toEqual(["service_error", "slot_not_found", 404]);
  });

  it("getSlotInfo names the slot of the client's cuid that backs the login (cu_id, meta_idx) with its content_address and tr_cnt", async () => {
    const { jwt, userId } = await fresh();
    const info = await backend.getSlotInfo(jwt);
    const { slots } = await backend.listSlots({ accessToken: info.access_token, cuid });
    expect(slots).toHaveLength(1);
    expect(info).toMatchObject({ id: userId, cu_id: cuid, meta_idx: slots[0]!.meta_idx, content_address: slots[0]!.slot, tr_cnt: 0 });
  });

  it("answers the service's own refusals as service_error with its code, and never retries a slot call", async () => {
    const { jwt } = await fresh();
    const opens = countRequests(mock, "/v1/slots");
    const noCuid = await rejection(backend.openSlot({ accessToken: jwt, cuid: "sdk-never-registered" }));
    expect([noCuid.code, noCuid.error, noCuid.serviceStatus]).toEqual(["service_error", "provider_not_registered", 404]);
    expect(opens.count, "one request, no retry").toBe(1);
    const badToken = await rejection(backend.listSlots({ accessToken: "not-a-token", cuid }));
    expect([badToken.error, badToken.serviceStatus]).toEqual(["invalid_token", 401]);
    const unknownSlot = await rejection(backend.activateSlot({ accessToken: jwt, cuid, metaIdx: 5 }));
    expect([unknownSlot.error, unknownSlot.serviceStatus]).toEqual(["slot_not_found", 404]);
  });
});
