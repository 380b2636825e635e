import {
  type Check,
  type ConformanceContext,
  authorizeEnforcesCsrf,
  authorizeRequiresExactRedirectUri,
  codeIsSingleUse,
  createConformanceContext,
  metaCodeIsSingleUse,
  purchaseSplits15To85,
  rejectsOversizedBody,
  revokeDeactivatesToken,
  statusLifecycle,
  statusRejectsOtherUsersToken,
  tokenRejectsUnregisteredRedirectUri,
} from "@slotgate/conformance";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockFaults, type MockService, createMockService } from "../src/index.js";

/** Each deliberate fault and the conformance checks that must catch it. */
const CASES: { fault: keyof MockFaults; checks: Record<string, Check> }[] = [
  { fault: "reuseCodes", checks: { codeIsSingleUse, metaCodeIsSingleUse } },
  { fault: "looseRedirectUri", checks: { authorizeRequiresExactRedirectUri, tokenRejectsUnregisteredRedirectUri } },
  { fault: "skipCsrfCheck", checks: { authorizeEnforcesCsrf } },
  { fault: "ignoreRevocation", checks: { revokeDeactivatesToken } },
  { fault: "skipTokenUserCheck", checks: { statusRejectsOtherUsersToken } },
  { fault: "logoutKeepsTransferDisabled", checks: { statusLifecycle } },
  { fault: "wrongFeeSplit", checks: { purchaseSplits15To85 } },
  { fault: "noBodyLimit", checks: { rejectsOversizedBody } },
];

const healthy = createMockService({ baseUrl: "http://healthy.slotgate.test" });
const faulty = new Map<string, MockService>(
  CASES.map(({ fault }) => [fault, createMockService({ baseUrl: `http://${fault.toLowerCase()}.slotgate.test`, faults: { [fault]: true } })]),
);
const server = setupServer(...healthy.handlers, ...[...faulty.values()].flatMap((m) => m.handlers));

const target = (mock: MockService) => ({ name: mock.baseUrl, baseUrl: () => mock.baseUrl, operator: mock.operator });
const contexts: ConformanceContext[] = [];
async function contextFor(mock: MockService): Promise<ConformanceContext> {
  const ctx = await createConformanceContext(target(mock));
  contexts.push(ctx);
  return ctx;
}

beforeAll(() => server.listen({ onUnhandledRequest: "bypass" }));
afterAll(async () => {
  await Promise.all(contexts.map((c) => c.close()));
  server.close();
});

describe("the conformance suite bites: each deliberate mock fault fails the checks that guard it", () => {
  for (const { fault, checks } of CASES) {
    for (const [name, check] of Object.entries(checks)) {
      it(`faults.${fault} fails ${name} (which passes on the healthy mock)`, async () => {
        await expect(check(await contextFor(healthy))).resolves.toBeUndefined();
        await expect(check(await contextFor(faulty.get(fault)!))).rejects.toThrow();
      }, 60_000);
    }
  }
});
