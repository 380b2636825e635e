import { FIXTURES, type MockService, createMockService } from "@slotgate/mock-service";
import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { SlotgateBackend, type SlotgateBackendOptions, silentLogger } from "../../src/index.js";

export { FIXTURES };

/** One MSW interceptor per test file; handlers are swapped per simulated service. */
export const msw = setupServer();

export function startMsw(): void {
  msw.listen({ onUnhandledRequest: "bypass" });
}

/** A simulated service whose backend client's registered redirect URI is `redirectUri`. */
export async function simulatedService(redirectUri: string): Promise<MockService> {
  const mock = createMockService({ backendRedirectUri: redirectUri, callbackDelayMs: 1 });
  await mock.ready();
  msw.resetHandlers(...mock.handlers);
  return mock;
}

/** A backend for the simulated service's backend client. */
export function backendFor(mock: MockService, overrides: Partial<SlotgateBackendOptions> = {}): SlotgateBackend {
  const c = mock.fixtures.backendClient;
  return new SlotgateBackend({
    authServerUrl: mock.baseUrl,
    clientId: c.client_id,
    clientSecret: c.client_secret,
    redirectUri: c.redirect_uri,
    logger: silentLogger,
    ...overrides,
  });
}

/** A user JWT of the seeded end user for the backend client. */
export function userJwt(mock: MockService): Promise<string> {
  return mock.issueUserJwt(mock.fixtures.endUser.user_id, mock.fixtures.backendClient.client_id);
}

/**
 * Replaces the simulated authorize endpoint with one that accepts and records
 * the state but never calls back, so a test can deliver (or withhold) the callback itself.
 */
export function captureAuthorize(mock: MockService): { states: string[]; next(): Promise<string> } {
  const states: string[] = [];
  const waiters: Array<(s: string) => void> = [];
  msw.use(
    http.get(`${mock.baseUrl}/v1/oauth-meta/authorize`, ({ request }) => {
      const state = new URL(request.url).searchParams.get("state") ?? "";
      states.push(state);
      waiters.shift()?.(state);
      return HttpResponse.json({ success: true, message: "accepted" });
    }),
  );
  return {
    states,
    next: () => new Promise<string>((resolve) => waiters.push(resolve)),
  };
}

/** Counts requests to a path of the simulated service. */
export function countRequests(mock: MockService, path: string): { readonly count: number } {
  const counter = { count: 0 };
  msw.events.on("request:start", ({ request }) => {
    if (request.url.startsWith(`${mock.baseUrl}${path}`)) counter.count++;
  });
  return counter;
}

/** POSTs a callback to the backend's route, as the service would. */
export async function postCallback(redirectUri: string, params: Record<string, string>, method = "POST"): Promise<Response> {
  const res = await fetch(`${redirectUri}?${new URLSearchParams(params)}`, { method });
  return res;
}
