import { defineConformanceSuite } from "@slotgate/conformance";
import { setupServer } from "msw/node";
import { afterAll, beforeAll } from "vitest";
import { createMockService } from "../src/index.js";

const mock = createMockService();
const server = setupServer(...mock.handlers);

// "bypass" lets the service's server-to-server callback reach the suite's real receiver on 127.0.0.1.
beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterAll(() => server.close());

defineConformanceSuite({
  name: "simulated service (MSW)",
  baseUrl: () => mock.baseUrl,
  operator: mock.operator,
  endpoints: mock.endpoints,
  readMailedCode: (email) => mock.readMailedCode(email),
});
