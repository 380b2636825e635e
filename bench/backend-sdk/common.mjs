// Shared set-up of the backend SDK benchmarks: the simulated service (MSW, in process) and a
// real node:http callback route on 127.0.0.1.
import { createServer } from "node:http";
import { createMockService } from "@slotgate/mock-service";
import { setupServer } from "msw/node";
import { SlotgateBackend, silentLogger } from "@slotgate/backend-sdk";

export async function startCallbackServer(handler) {
  const server = createServer((req, res) => handler(req, res));
  server.keepAliveTimeout = 60_000;
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/slotgate/callback`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(r);
      }),
  };
}

export async function simulatedService(redirectUri) {
  const mock = createMockService({ backendRedirectUri: redirectUri, callbackDelayMs: 0 });
  await mock.ready();
  const msw = setupServer(...mock.handlers);
  msw.listen({ onUnhandledRequest: "bypass" });
  return { mock, msw };
}

export function backendFor(mock, extra = {}) {
  const c = mock.fixtures.backendClient;
  return new SlotgateBackend({
    authServerUrl: mock.baseUrl,
    clientId: c.client_id,
    clientSecret: c.client_secret,
    redirectUri: c.redirect_uri,
    logger: silentLogger,
    ...extra,
  });
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export const mb = (bytes) => (bytes / 1024 / 1024).toFixed(2);
