import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlotgateBackendError } from "../src/index.js";
import { backendFor, msw, simulatedService, startMsw, userJwt } from "./support/simulated-service.js";
import { type RunningServer, nodeServer } from "./support/http-server.js";

/** refreshAccessToken against the simulated service, whose backend client is registered for refresh tokens. */
let callbacks: RunningServer;
let handler: Parameters<typeof nodeServer>[0] = (_req, res) => res.end();

beforeAll(async () => {
  startMsw();
  callbacks = await nodeServer((req, res) => handler(req, res));
});
afterAll(async () => {
  msw.close();
  await callbacks.close();
});

async function signedIn() {
  const mock = await simulatedService(`${callbacks.origin}/slotgate/callback`);
  const backend = backendFor(mock);
  handler = (req, res) => backend.handleCallback(req, res);
  const slot = await backend.getSlotInfo(await userJwt(mock));
  return { mock, backend, slot };
}

describe("SlotgateBackend.refreshAccessToken", () => {
  it("slot info carries a refresh token; each refresh returns a new pair", async () => {
    const { backend, slot } = await signedIn();
    expect(slot.refresh_token).toMatch(/^sgr_/);
    const next = await backend.refreshAccessToken(slot.refresh_token!);
    expect(next).toEqual({
      access_token: expect.any(String),
      refresh_token: expect.stringMatching(/^sgr_/),
      token_type: "Bearer",
      expires_in: 3600,
      user_id: slot.id,
      content_address: slot.content_address,
    });
    expect(next.refresh_token).not.toBe(slot.refresh_token);
    expect((await backend.refreshAccessToken(next.refresh_token)).user_id).toBe(slot.id);
  });

  it("REFRESH_REJECTED (401) once the session ended by logout", async () => {
    const { backend, slot } = await signedIn();
    await backend.statusLogout({ accessToken: slot.access_token, userId: slot.id });
    const error = await backend.refreshAccessToken(slot.refresh_token!).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SlotgateBackendError);
    expect(error).toMatchObject({ code: "refresh_rejected", status: 401, error: "invalid_grant", serviceStatus: 400 });
    expect(String(error)).not.toContain(slot.refresh_token!);
  });

  it("INVALID_ARGUMENT without a token; NETWORK_ERROR when the service is unreachable", async () => {
    const { backend } = await signedIn();
    await expect(backend.refreshAccessToken("")).rejects.toMatchObject({ code: "invalid_argument" });
    const offline = backendFor((await signedIn()).mock, { fetch: () => Promise.reject(new TypeError("fetch failed")) });
    await expect(offline.refreshAccessToken("sgr_x")).rejects.toMatchObject({ code: "network_error" });
  });
});
