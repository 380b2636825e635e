import { afterAll, beforeAll, describe, it } from "vitest";
import type { CheckGroup } from "./checks/check.js";
import { contentTokenChecks } from "./checks/content-tokens.js";
import { CHECK_GROUPS } from "./checks/index.js";
import { slotChecks } from "./checks/slots.js";
import { walletWindowChecks } from "./checks/wallet-window.js";
import { deviceExpiryChecks } from "./checks/device.js";
import { expiredTokenChecks } from "./checks/validate-revoke.js";
import { type ConformanceContext, createConformanceContext } from "./context.js";
import { ConformanceError } from "./errors.js";
import type { ConformanceTarget } from "./target.js";

/** Per-check timeout in ms (checks make real HTTP requests and sign tokens). */
const CHECK_TIMEOUT_MS = 30_000;

/**
 * Registers the Slotgate HTTP-contract conformance suite (vitest `describe` / `it`) against a target.
 * It seeds itself through the public API (developer, clients, end users, a callback receiver on
 * 127.0.0.1) in `beforeAll`, so it can run many times against the same target.
 *
 * Groups: developer center, authorize, token, validate / revoke, status, oauth-meta, bad input, and
 * content tokens with the slots and the listing lock (unless `features.contentTokens === false`), the wallet window's
 * confirmation rows (they need a client's cuid: also unless `features.walletWindow === false`). The expired-token check is registered
 * when `operator.issueExpiredToken` is given.
 *
 * @example
 * ```ts
 * import { defineConformanceSuite } from "@slotgate/conformance";
 * defineConformanceSuite({
 *   name: "reference server",
 *   baseUrl: () => server.url,
 *   operator: { enableRelease: (cuid) => admin.enableRelease(cuid) },
 * });
 * ```
 */
export function defineConformanceSuite(target: ConformanceTarget): void {
  describe(`Slotgate HTTP contract: ${target.name}`, () => {
    let ctx: ConformanceContext | undefined;
    beforeAll(async () => {
      ctx = await createConformanceContext(target);
    }, 60_000);
    afterAll(async () => {
      await ctx?.close();
    });
    const context = (): ConformanceContext => {
      if (!ctx) throw new ConformanceError("setup_failed", "the conformance context was not created (see the beforeAll error)");
      return ctx;
    };
    const register = (title: string, group: CheckGroup) =>
      describe(title, () => {
        for (const [name, check] of Object.entries(group)) it(name, () => check(context()), CHECK_TIMEOUT_MS);
      });
    for (const [title, group] of Object.entries(CHECK_GROUPS)) register(title, group);
    if (target.operator.issueExpiredToken) register("expired tokens", expiredTokenChecks);
    if (target.operator.expireDeviceAuthorization) register("device grant expiry", deviceExpiryChecks);
    if (target.features?.contentTokens !== false) {
      register("content tokens", contentTokenChecks);
      register("slots and the listing lock", slotChecks);
    }
    if (target.features?.contentTokens !== false && target.features?.walletWindow !== false) register("wallet window", walletWindowChecks);
  });
}
