import {
  type Check,
  type ConformanceContext,
  authorizeEnforcesCsrf,
  authorizePopupPostsResult,
  authorizeRequiresExactRedirectUri,
  clientDisableEnableDelete,
  clientSecretRotationOverlaps,
  codeIsSingleUse,
  createConformanceContext,
  metaCodeIsSingleUse,
  pkceIsEnforced,
  purchaseSplits15To85,
  rejectsOversizedBody,
  revokeDeactivatesToken,
  saleRefusedWhileSellerLoggedIn,
  slotsOpenListActivateAfterLogout,
  statusLifecycle,
  statusRejectsOtherUsersToken,
  tableRowsRefuseAnotherActor,
  tokenRejectsUnregisteredRedirectUri,
  walletConfirmationHiddenFromOtherClients,
  walletConfirmationRefusesCuidNotOwned,
} from "@slotgate/conformance";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type MockFaults, type MockService, createMockService } from "../src/index.js";

/** Each deliberate fault, the conformance checks that must catch it, and what their failure message names. */
const CASES: { fault: keyof MockFaults; checks: Record<string, Check>; because: RegExp[] }[] = [
  { fault: "reuseCodes", checks: { codeIsSingleUse, metaCodeIsSingleUse }, because: [/replayed code/, /replayed get_token/] },
  {
    fault: "looseRedirectUri",
    checks: { authorizeRequiresExactRedirectUri, tokenRejectsUnregisteredRedirectUri },
    because: [/trailing slash removed/, /redirect_uri_mismatch/],
  },
  { fault: "skipCsrfCheck", checks: { authorizeEnforcesCsrf }, because: [/no cookie/] },
  { fault: "ignoreRevocation", checks: { revokeDeactivatesToken }, because: [/revoked token/] },
  {
    fault: "skipTokenUserCheck",
    checks: { statusRejectsOtherUsersToken, tableRowsRefuseAnotherActor },
    because: [/another user's token/, /naming another (user|token client): HTTP status/],
  },
  { fault: "logoutKeepsTransferDisabled", checks: { statusLifecycle }, because: [/match object/] },
  { fault: "wrongFeeSplit", checks: { purchaseSplits15To85 }, because: [/buy 1000/] },
  { fault: "noBodyLimit", checks: { rejectsOversizedBody }, because: [/signup: HTTP status/] },
  { fault: "popupWildcardOrigin", checks: { authorizePopupPostsResult }, because: [/'\*'/] },
  { fault: "skipPkce", checks: { pkceIsEnforced }, because: [/missing verifier/] },
  { fault: "rotationWithoutOverlap", checks: { clientSecretRotationOverlaps }, because: [/previous_secret_valid_until|previous secret inside the window/] },
  {
    fault: "skipListingLock",
    checks: { slotsOpenListActivateAfterLogout, saleRefusedWhileSellerLoggedIn },
    because: [/activate while logged in: HTTP status/, /sale while the seller is logged in: HTTP status/],
  },
  { fault: "disabledClientStillWorks", checks: { clientDisableEnableDelete }, because: [/disabled client/] },
  {
    fault: "walletAnyClient",
    checks: { walletConfirmationRefusesCuidNotOwned, walletConfirmationHiddenFromOtherClients },
    because: [/approve_purchases for another developer's cuid: HTTP status/, /another client reads the confirmation: HTTP status/],
  },
];

const healthy = createMockService({ baseUrl: "http://healthy.slotgate.test" });
const faulty = new Map<string, MockService>(
  CASES.map(({ fault }) => [fault, createMockService({ baseUrl: `http://${fault.toLowerCase()}.slotgate.test`, faults: { [fault]: true } })]),
);
const server = setupServer(...healthy.handlers, ...[...faulty.values()].flatMap((m) => m.handlers));

const target = (mock: MockService) => ({
  name: mock.baseUrl,
  baseUrl: () => mock.baseUrl,
  operator: mock.operator,
  endpoints: mock.endpoints,
  readMailedCode: (email: string) => mock.readMailedCode(email),
});
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
  for (const { fault, checks, because } of CASES) {
    Object.entries(checks).forEach(([name, check], index) => {
      it(`faults.${fault} fails ${name} (which passes on the healthy mock)`, async () => {
        await expect(check(await contextFor(healthy))).resolves.toBeUndefined();
        await expect(check(await contextFor(faulty.get(fault)!))).rejects.toThrow(because[index]!);
      }, 60_000);
    });
  }
});
