import { LIMITS } from "@slotgate/protocol";
import type { EndpointName } from "@slotgate/protocol/endpoints";
import type { JWK } from "jose";
import type { HttpHandler } from "msw";
import type { MockContext } from "./context.js";
import { MockServiceError } from "./errors.js";
import { type MockFixtures, createFixtures } from "./fixtures.js";
import { authorizeHandlers } from "./handlers/authorize.js";
import { contentTokenHandlers, parseXotn } from "./handlers/content-tokens.js";
import { brandHandlers } from "./handlers/brand.js";
import { devUserHandlers } from "./handlers/dev-user.js";
import { deviceHandlers } from "./handlers/device.js";
import { fallbackHandlers } from "./handlers/fallback.js";
import { oauthMetaHandlers } from "./handlers/oauth-meta.js";
import { statusHandlers } from "./handlers/status.js";
import { tokenHandlers } from "./handlers/token.js";
import { validateHandlers } from "./handlers/validate.js";
import { type WalletDecision, walletWindowHandlers } from "./handlers/wallet-window.js";
import { wellKnownHandlers } from "./handlers/well-known.js";
import { type SigningKeys, createSigningKeys } from "./jwt.js";
import type { MockFaults, MockServiceOptions } from "./options.js";
import { seed } from "./seed.js";
import { activeSlot, firstCuidOf, walletOf } from "./slots.js";
import { slotHandlers } from "./handlers/slots.js";
import { MockState } from "./state.js";
import { issueAccessToken, issueUserJwt } from "./tokens.js";

/** Platform-operator actions that have no public HTTP API (the conformance suite's `operator`). */
export interface MockOperator {
  /**
   * Sets `_cuid_releaseTokenEnabled[cuid]` to true.
   * @throws MockServiceError `unknown_cuid`
   */
  enableRelease(cuid: string): Promise<void>;
  /**
   * Gives the user's slot wallet `xotn` more XOTN (wei integer or ether decimal string), already approved:
   * the user's active slot of `cuid` (default: the client's first registered cuid), opened when there is
   * none, as the server's development faucet does; a client without a cuid: the user's wallet at the client.
   * @throws MockServiceError `unknown_client` / `unknown_user` / `unknown_cuid`
   */
  fundSlot(args: { client_id: string; user_id: string; xotn: string; cuid?: string }): Promise<void>;
  /** A correctly signed access token whose `exp` lies beyond the clock-skew tolerance in the past. */
  issueExpiredToken(args: { user_id: string; client_id: string }): Promise<string>;
  /**
   * Makes a device authorization expire now, as if the user never came (user code as shown, e.g. `BDFH-JKLM`).
   * @throws MockServiceError `unknown_user_code`
   */
  expireDeviceAuthorization(userCode: string): Promise<void>;
}

/** Test controls of the simulated wallet window. */
export interface MockWalletControls {
  /**
   * Queues how the simulated player answers the next wallet window (one decision per window, oldest first);
   * when the queue is empty the `walletDecision` option applies.
   *
   * @example
   * ```ts
   * mock.wallet.nextDecision("deny");
   * await expect(wallet.transfer(confirmation)).rejects.toMatchObject({ code: "confirmation_denied" });
   * ```
   */
  nextDecision(decision: WalletDecision): void;
}

/** A simulated Slotgate service: MSW handlers over an in-memory state. */
export interface MockService {
  /** MSW request handlers; pass them to `setupServer(...)` (msw/node) or `setupWorker(...)` (msw/browser). */
  readonly handlers: HttpHandler[];
  /** Base URL the handlers answer on (no trailing slash); also the JWT issuer. */
  readonly baseUrl: string;
  /** The seeded records (see {@link MockFixtures}); the same values whether or not `seed` was false. */
  readonly fixtures: MockFixtures;
  /**
   * The names of the endpoint table's rows the simulation serves (its `/openapi.json` lists them); the
   * others (PIN, transfers, the marketplace check, the provider side of the developer center, the
   * development-chain operator routes) answer 404.
   */
  readonly endpoints: readonly EndpointName[];
  /** The in-memory state, for inspection in tests. */
  readonly state: MockState;
  /** Platform-operator actions. */
  readonly operator: MockOperator;
  /** Test controls of the simulated wallet window. */
  readonly wallet: MockWalletControls;
  /** Resolves once the signing key exists and the fixtures are seeded (handlers await it themselves). */
  ready(): Promise<void>;
  /** Signs a user JWT (as the popup / loopback login returns) for an existing user and client. */
  issueUserJwt(userId: string, clientId: string): Promise<string>;
  /** Signs an access token (as `/oauth/token` returns) for an existing user and client. */
  issueAccessToken(userId: string, clientId: string): Promise<string>;
  /** The public JWKS the service publishes at `/.well-known/jwks.json`. */
  jwks(): Promise<{ keys: JWK[] }>;
  /** The one-time code of the newest mail to `email` (the simulated mailbox), or throws when there is none. */
  readMailedCode(email: string): Promise<string>;
}

function requireUserAndClient(state: MockState, userId: string, clientId: string): void {
  if (!state.clients.has(clientId)) throw new MockServiceError("unknown_client", `No client application ${clientId}.`);
  if (!state.endUsers.has(userId)) throw new MockServiceError("unknown_user", `No end user ${userId}.`);
}

/**
 * Creates a simulated Slotgate service: stateful MSW 2 handlers for the whole HTTP contract
 * (developer users and clients, authorize page / popup / loopback, token exchange, validate and revoke,
 * login status, the backend SDK's oauth-meta flow with its server-to-server callback, and content tokens),
 * with real ES256 JWTs and real AES-256-CTR.
 *
 * @example
 * ```ts
 * import { setupServer } from "msw/node";
 * import { createMockService, FIXTURES } from "@slotgate/mock-service";
 *
 * const mock = createMockService();
 * const server = setupServer(...mock.handlers);
 * server.listen({ onUnhandledRequest: "bypass" });
 * const jwt = await mock.issueUserJwt(FIXTURES.endUser.user_id, FIXTURES.webClient.client_id);
 * const res = await fetch(`${mock.baseUrl}/v1/oauth/validate`, { headers: { Authorization: `Bearer ${jwt}` } });
 * ```
 */
export function createMockService(options: MockServiceOptions = {}): MockService {
  const baseUrl = (options.baseUrl ?? "http://slotgate.test").replace(/\/+$/, "");
  try {
    const parsed = new URL(baseUrl);
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error("protocol");
  } catch (cause) {
    throw new MockServiceError("invalid_option", "baseUrl must be an absolute http(s) URL.", { cause });
  }
  const fixtures = createFixtures(options);
  const state = new MockState();
  const faults: MockFaults = { ...options.faults };
  const now = options.now ?? Date.now;
  let readyPromise: Promise<SigningKeys> | undefined;
  const ctx: MockContext = {
    baseUrl,
    state,
    fixtures,
    faults,
    now,
    ready: () => {
      readyPromise ??= (async () => {
        const keys = await createSigningKeys();
        if (options.seed ?? true) await seed(state, fixtures, now);
        return keys;
      })();
      return readyPromise;
    },
    fetch: () => options.fetch ?? globalThis.fetch,
    callbackAttempts: Math.max(1, options.callbackAttempts ?? 3),
    clientSecretOverlapSeconds: Math.max(0, options.clientSecretOverlapSeconds ?? 86_400),
    callbackDelayMs: Math.max(0, options.callbackDelayMs ?? 10),
    bodyLimit: faults.noBodyLimit ? null : LIMITS.maxJsonBodyBytes,
    endpoints: [],
    walletDecision: options.walletDecision ?? "approve",
    walletDecisions: [],
  };

  const handlers: HttpHandler[] = [
    ...wellKnownHandlers(ctx),
    ...devUserHandlers(ctx),
    ...brandHandlers(ctx),
    ...authorizeHandlers(ctx),
    ...deviceHandlers(ctx),
    ...tokenHandlers(ctx),
    ...validateHandlers(ctx),
    ...statusHandlers(ctx),
    ...oauthMetaHandlers(ctx),
    ...contentTokenHandlers(ctx),
    ...slotHandlers(ctx),
    ...walletWindowHandlers(ctx),
    ...fallbackHandlers(ctx),
  ];

  const operator: MockOperator = {
    async enableRelease(cuid) {
      await ctx.ready();
      const provider = state.providers.get(cuid);
      if (!provider) throw new MockServiceError("unknown_cuid", `No provider registration for cuid ${cuid}.`);
      provider.release_enabled = true;
    },
    async fundSlot({ client_id, user_id, xotn, cuid }) {
      await ctx.ready();
      requireUserAndClient(state, user_id, client_id);
      const slotCuid = cuid ?? firstCuidOf(ctx, client_id);
      if (slotCuid !== undefined && !state.providers.has(slotCuid))
        throw new MockServiceError("unknown_cuid", `No provider registration for cuid ${slotCuid}.`);
      const wallet = slotCuid === undefined ? state.slotFor(client_id, user_id) : walletOf(ctx, activeSlot(ctx, user_id, slotCuid, { create: true })!);
      wallet.xotn += parseXotn(xotn);
    },
    async issueExpiredToken({ user_id, client_id }) {
      await ctx.ready();
      requireUserAndClient(state, user_id, client_id);
      const lifetime = 60;
      const issuedAt = now() - (lifetime + LIMITS.clockSkewSeconds + 60) * 1000;
      return (await issueAccessToken(ctx, user_id, client_id, lifetime, issuedAt)).token;
    },
    async expireDeviceAuthorization(userCode) {
      await ctx.ready();
      const wanted = userCode.toUpperCase().replace(/[\s-]/g, "");
      const device = [...state.devices.values()].find((d) => d.user_code === wanted);
      if (!device) throw new MockServiceError("unknown_user_code", `No device authorization with user code ${userCode}.`);
      device.expires_at = now() - 1000;
    },
  };

  return {
    handlers,
    baseUrl,
    endpoints: ctx.endpoints.map((row) => row.name as EndpointName),
    fixtures,
    state,
    operator,
    wallet: {
      nextDecision(decision) {
        if (decision !== "approve" && decision !== "deny" && decision !== "fail") {
          throw new MockServiceError("invalid_option", 'A wallet decision is "approve", "deny" or "fail".');
        }
        ctx.walletDecisions.push(decision);
      },
    },
    ready: async () => {
      await ctx.ready();
    },
    async issueUserJwt(userId, clientId) {
      await ctx.ready();
      requireUserAndClient(state, userId, clientId);
      return issueUserJwt(ctx, userId, clientId);
    },
    async issueAccessToken(userId, clientId) {
      await ctx.ready();
      requireUserAndClient(state, userId, clientId);
      return (await issueAccessToken(ctx, userId, clientId)).token;
    },
    async jwks() {
      return { keys: [(await ctx.ready()).jwk] };
    },
    async readMailedCode(email) {
      const mail = state.mails.filter((m) => m.to === email.toLowerCase()).at(-1);
      const code = mail ? /\b([0-9]{6})\b/.exec(mail.text)?.[1] : undefined;
      if (!code) throw new MockServiceError("no_mail", `No mail with a code to ${email}.`);
      return code;
    },
  };
}
