import type {
  SlotActivateResponse,
  SlotInfo,
  SlotListResponse,
  SlotResponse,
  StatusCheckResponse,
  StatusLoginResponse,
  StatusLogoutResponse,
} from "@slotgate/protocol";
import { type AgentTokenClaims, type VerifyAgentTokenOptions, createAgentKeySet, verifyAgentToken } from "./agent/verify-agent-token.js";
import { type CallbackResponseLike, responseWriter } from "./callback/answer-callback.js";
import { type CallbackRequestLike, toWebRequest } from "./callback/node-request.js";
import { callbackAnswer, readCallbackParams } from "./callback/read-callback.js";
import { SlotgateBackendError } from "./errors.js";
import type { ApiContext } from "./api/call-endpoint.js";
import { apiContext } from "./api/slotgate-api.js";
import { resolveFetch } from "./http/request.js";
import { isWebRequest } from "./http/web-request.js";
import { type Logger, consoleLogger } from "./logger.js";
import { type RefreshOptions, type RefreshedTokens, refreshAccessToken } from "./refresh/refresh-access-token.js";
import { type FetchLike, type ResolvedConfig, type SlotgateBackendOptions, resolveConfig } from "./options.js";
import { type GetSlotInfoOptions, SlotInfoFlow } from "./slot-info/slot-info-flow.js";
import { type SlotActivateArgs, type SlotReadOptions, type SlotUserArgs, activateSlot, listSlots, openSlot, readSlot } from "./slots/slot-calls.js";
import {
  STATUS_SYNC_DEFAULTS,
  type StatusContext,
  type StatusSyncArgs,
  type StatusSyncResult,
  checkStatus,
  defaultSleep,
  syncStatus,
} from "./status/status-sync.js";

/**
 * The Slotgate backend SDK (spec 4.13): exchanges a user JWT from the client
 * SDK for slot info through the service's callback, keeps login status in
 * sync, and verifies agent delegation tokens.
 *
 * @example
 * ```ts
 * import express from "express";
 * import { SlotgateBackend, SlotgateBackendError } from "@slotgate/backend-sdk";
 *
 * const slotgate = new SlotgateBackend({
 *   authServerUrl: "https://auth.example",
 *   clientId: process.env.SLOTGATE_CLIENT_ID!,
 *   clientSecret: process.env.SLOTGATE_CLIENT_SECRET!,
 *   redirectUri: "https://game.example/slotgate/callback",
 * });
 * const app = express();
 * app.all("/slotgate/callback", (req, res) => slotgate.handleCallback(req, res));
 * // or, on web standards (Next.js, Hono, Bun, Deno, Workers): (request) => slotgate.handleCallback(request)
 * app.post("/login", express.json(), async (req, res) => {
 *   try {
 *     res.json(await slotgate.getSlotInfo(req.body.jwt));
 *   } catch (err) {
 *     if (!(err instanceof SlotgateBackendError)) throw err;
 *     res.status(err.status).json({ error: err.code, message: err.message });
 *   }
 * });
 * ```
 */
export class SlotgateBackend {
  readonly #config: ResolvedConfig;
  readonly #logger: Logger;
  readonly #flow: SlotInfoFlow;
  readonly #status: StatusContext;
  readonly #agentKeys: () => ReturnType<typeof createAgentKeySet>;
  readonly #clientSecret: string;
  readonly #api: ApiContext;
  readonly #fetch: FetchLike;

  /**
   * @throws {@link SlotgateBackendError} `invalid_options` naming the bad option (never its value).
   */
  constructor(options: SlotgateBackendOptions) {
    const { clientSecret, ...config } = resolveConfig(options);
    // Mountable unbound: app.all(path, slotgate.handleCallback).
    Object.defineProperty(this, "handleCallback", { value: this.handleCallback.bind(this), enumerable: false });
    this.#config = Object.freeze(config);
    this.#clientSecret = clientSecret;
    this.#logger = options.logger ?? consoleLogger;
    const fetchFn = resolveFetch(options.fetch);
    const api = apiContext({ authServerUrl: config.authServerUrl, fetch: fetchFn });
    this.#api = api;
    this.#fetch = fetchFn;
    this.#flow = new SlotInfoFlow({ api, clientId: config.clientId, clientSecret, redirectUri: config.redirectUri }, this.#logger, options.pendingStore);
    this.#status = {
      api,
      clientId: config.clientId,
      logger: this.#logger,
      attempts: options.statusSync?.attempts ?? STATUS_SYNC_DEFAULTS.attempts,
      baseDelayMs: options.statusSync?.baseDelayMs ?? STATUS_SYNC_DEFAULTS.baseDelayMs,
      sleep: options.statusSync?.sleep ?? defaultSleep,
    };
    let keys: ReturnType<typeof createAgentKeySet> | undefined;
    this.#agentKeys = () => {
      keys ??= createAgentKeySet({ authServerUrl: config.authServerUrl, clientId: config.clientId, fetch: fetchFn });
      return keys;
    };
  }

  /** The validated configuration, without the secret. */
  get config(): Readonly<ResolvedConfig> {
    return this.#config;
  }

  /** Number of `getSlotInfo` calls of this instance waiting for their callback. */
  get pendingCount(): number {
    return this.#flow.pendingCount;
  }

  /**
   * Exchanges a user JWT (from the client SDK's popup login) for slot info
   * (spec 2.3). Checks the JWT's expiry locally, registers a pending call
   * under a fresh 256-bit state, calls `GET /v1/oauth-meta/authorize`, and
   * resolves once the service's callback reached {@link handleCallback} and
   * `POST /v1/oauth-meta/get_token` answered.
   *
   * @param jwt - the user JWT
   * @param options - `timeout` (default 15000 ms, covering callback and exchange) and `signal`
   * @throws {@link SlotgateBackendError} `missing_token` (400), `invalid_token` (401), `expired_token` (401),
   *   `authorize_error` (502), `callback_rejected` (502), `token_exchange_error` (502), `callback_timeout` (408),
   *   `shutdown` (503), `aborted` (499), `store_error` (503), `invalid_argument` (500)
   * @example
   * ```ts
   * const slot = await slotgate.getSlotInfo(jwt, { timeout: 10_000, signal: req.signal });
   * console.log(slot.id, slot.content_address, slot.tr_cnt);
   * ```
   */
  getSlotInfo(jwt: string, options?: GetSlotInfoOptions): Promise<SlotInfo> {
    return this.#flow.start(jwt, options);
  }

  /**
   * The same route handler for Node frameworks: Express and `node:http` (`(req, res)`), Fastify
   * (`(request, reply)`) and Koa (`(ctx)`, `(ctx, next)` or `(ctx.request, ctx.response)`). It converts
   * the request to a WHATWG `Request` once, runs the web-standard handler below, and writes its
   * `Response` back (status and headers at once, so a Koa middleware that does not await it still
   * answers). The answer does not wait for the hand-over to a shared store: a Node server keeps running.
   *
   * @returns a promise that settles once the answer is written and the callback handed over; it never
   *   rejects (a failure is logged), so it may be left unawaited
   * @throws {@link SlotgateBackendError} `invalid_argument` (synchronously) when `res` is no response object
   * @example
   * ```ts
   * // Express
   * app.all("/slotgate/callback", (req, res) => slotgate.handleCallback(req, res));
   * // Fastify
   * fastify.route({ method: ["GET", "POST"], url: "/slotgate/callback", handler: (req, reply) => slotgate.handleCallback(req, reply) });
   * // Koa (any router, or plain middleware)
   * app.use((ctx, next) => (ctx.path === "/slotgate/callback" ? slotgate.handleCallback(ctx) : next()));
   * // node:http
   * http.createServer((req, res) => slotgate.handleCallback(req, res));
   * ```
   */
  handleCallback(req: CallbackRequestLike, res?: CallbackResponseLike | (() => unknown)): Promise<void>;
  /**
   * The route handler for the service's callback (spec 4.4 step 2), on web standards: it takes the
   * WHATWG `Request` and resolves the `Response` to send, so it runs unchanged in a Next.js App Router
   * route handler, Hono, Bun, Deno and Workers. Mount it on the path of `redirectUri` for POST (and GET).
   *
   * It answers 200 `{"success":true}` to every callback. The `Response` resolves once the callback was
   * handed to its waiting `getSlotInfo` call: delivered in this process, or, with a shared
   * `pendingStore`, handed over to the instance or function that waits for it (so a serverless
   * function may be frozen as soon as it returned). The code exchange runs afterwards on the waiter.
   * Unknown, late and repeated states are ignored; a `success` other than `1` rejects the pending call
   * with `callback_rejected`.
   *
   * It is bound to the instance, so it can be passed as is: `export const POST = slotgate.handleCallback`
   * (this signature is declared last, so `Parameters<typeof slotgate.handleCallback>` and Next.js's
   * route type check see `(request: Request, ...)`).
   * Arguments after the request are ignored (Next.js's route context, a Worker's `env` and `ctx`, Deno's
   * and Bun's connection info).
   *
   * @param request - the service's callback request; only its query string is read
   * @param _platform - whatever the platform passes after the request; ignored
   * @returns the answer to send
   * @example
   * ```ts
   * // Next.js App Router: app/slotgate/callback/route.ts
   * export const POST = (request: Request) => slotgate.handleCallback(request);
   * export const GET = POST;
   * // Hono (and Bun, Deno, Workers, through Hono or their own fetch handler)
   * app.on(["GET", "POST"], "/slotgate/callback", (c) => slotgate.handleCallback(c.req.raw));
   * ```
   */
  handleCallback(request: Request, ..._platform: unknown[]): Promise<Response>;
  handleCallback(req: Request | CallbackRequestLike, res?: CallbackResponseLike | (() => unknown)): Promise<unknown> {
    // A web Request always takes the web path: what follows it is the platform's (route context, env, info).
    if (isWebRequest(req)) {
      const { response, handoff } = this.#receiveCallback(req);
      return handoff.then(() => response);
    }
    // Koa passes (ctx, next): the context is both request and response.
    const target = res === undefined || typeof res === "function" ? req : res;
    const write = responseWriter(target);
    const request = req !== null && typeof req === "object" ? toWebRequest(req as CallbackRequestLike) : null;
    const { response, handoff } = request ? this.#receiveCallback(request) : { response: callbackAnswer(), handoff: Promise.resolve() };
    const written = write(response).catch((cause: unknown) => {
      this.#logger.warn("could not write the callback's answer", { cause: String(cause) });
    });
    return Promise.all([written, handoff]).then(() => undefined);
  }

  /** The one callback handler: reads the query, hands the callback to its waiter, answers 200. */
  #receiveCallback(request: Request): { response: Response; handoff: Promise<void> } {
    const response = callbackAnswer();
    const params = readCallbackParams(request);
    if (!params) {
      this.#logger.debug("callback ignored: no state");
      return { response, handoff: Promise.resolve() };
    }
    const handoff = this.#flow.receive(params).catch((cause: unknown) => {
      this.#logger.error("callback processing failed", { cause: String(cause) });
    });
    return { response, handoff };
  }

  /**
   * Rejects every pending `getSlotInfo` call with `shutdown` immediately
   * (before the returned promise settles), cancels their requests and timers,
   * and detaches from the shared pending store. Later calls reject with `shutdown`.
   *
   * @example
   * ```ts
   * process.once("SIGTERM", async () => { await slotgate.shutdown(); server.close(); });
   * ```
   */
  shutdown(): Promise<void> {
    return this.#flow.shutdown();
  }

  /**
   * Reports a login to the service (`POST /v1/oauth/status/login`, spec 4.6)
   * with the recommended behaviour: up to 3 attempts with exponential
   * backoff on network errors, 408, 429 and 5xx; never throws — failures are
   * logged and returned, and the user flow continues.
   *
   * @example
   * ```ts
   * const slot = await slotgate.getSlotInfo(jwt);
   * void slotgate.statusLogin({ accessToken: slot.access_token, userId: slot.id });
   * ```
   */
  statusLogin(args: StatusSyncArgs): Promise<StatusSyncResult<StatusLoginResponse>> {
    return syncStatus<StatusLoginResponse>(this.#status, "login", args);
  }

  /**
   * Reports a logout (`POST /v1/oauth/status/logout`, spec 4.6): call it right
   * before destroying the session. Same retry and never-throw behaviour as
   * {@link statusLogin}; on success `response.transfer_enabled` is true.
   *
   * @example
   * ```ts
   * const result = await slotgate.statusLogout({ accessToken, userId });
   * if (!result.ok) metrics.increment("slotgate.logout_sync_failed");
   * req.session.destroy();
   * ```
   */
  statusLogout(args: StatusSyncArgs): Promise<StatusSyncResult<StatusLogoutResponse>> {
    return syncStatus<StatusLogoutResponse>(this.#status, "logout", args);
  }

  /**
   * Reads a user's current status and transfer eligibility (`GET /v1/oauth/status/check`):
   * `transfer_enabled` is true exactly when the status is `logged_out`. Unlike the sync
   * calls this is a read the caller needs, so it throws; it is not retried.
   *
   * @throws {@link SlotgateBackendError} `service_error` (with the service's `error`), `network_error`,
   *   `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const { status, transfer_enabled } = await slotgate.statusCheck({ accessToken, userId });
   * if (!transfer_enabled) throw new Error("log out before listing the slot");
   * ```
   */
  statusCheck(args: StatusSyncArgs): Promise<StatusCheckResponse> {
    return checkStatus(this.#status, args);
  }

  /**
   * The user's slots of a game (`GET /v1/slots?cu_id=`): each slot wallet (`slot`, the address that
   * holds the slot's content tokens), its owner, `tr_cnt` and balances read from the chain, and whether
   * it is the `active` slot (the one purchases and spending go to, and the slot info's
   * `content_address`) or `sleeping`. Not retried.
   *
   * @throws {@link SlotgateBackendError} `service_error` (with the service's `error`, e.g. `invalid_token`),
   *   `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const info = await slotgate.getSlotInfo(jwt);
   * const { slots } = await slotgate.listSlots({ accessToken: info.access_token, cuid: info.cu_id! });
   * for (const s of slots) console.log(s.meta_idx, s.state, s.balance, s.tr_cnt);
   * ```
   */
  listSlots(args: SlotUserArgs): Promise<SlotListResponse> {
    return listSlots(this.#api, args);
  }

  /**
   * Opens another slot of a game for the user (`POST /v1/slots`, answered 201): a new slot wallet and the
   * next `meta_idx` of the cuid. It sleeps unless the user had no active slot of the cuid; its on-chain
   * registration is queued (`registered` turns true once it landed). Not retried (each call opens one).
   *
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `provider_not_registered` for an unknown cuid,
   *   `rate_limited`), `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const { slot } = await slotgate.openSlot({ accessToken, cuid: "my-game" });
   * console.log(slot.meta_idx, slot.state); // 1 "sleeping"
   * ```
   */
  openSlot(args: SlotUserArgs): Promise<SlotResponse> {
    return openSlot(this.#api, args);
  }

  /**
   * Makes one of the user's slots of a game the active one (`POST /v1/slots/activate`); the previously
   * active slot sleeps. Allowed only while the user is logged out of the game (spec 3.1 rule 2): report
   * the logout first ({@link statusLogout}), else the service answers 409 `logout_required`.
   *
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `logout_required`, `not_owner`, `slot_not_found`),
   *   `network_error`, `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * await slotgate.statusLogout({ accessToken, userId });
   * const { active } = await slotgate.activateSlot({ accessToken, cuid: "my-game", metaIdx: 1 });
   * console.log(active.slot); // the content_address the next login answers
   * ```
   */
  activateSlot(args: SlotActivateArgs): Promise<SlotActivateResponse> {
    return activateSlot(this.#api, args);
  }

  /**
   * Reads one slot (`GET /v1/slots/{cu_id}/{meta_idx}`, public, no token): its slot wallet, the owner's
   * user wallet and the number of ownership transfers (`tr_cnt`) as the chain records them, balance and
   * used balances, and its state. A marketplace shows it after a sale.
   *
   * @throws {@link SlotgateBackendError} `service_error` (e.g. `slot_not_found`), `network_error`,
   *   `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const { slot } = await slotgate.slot("my-game", 0);
   * console.log(slot.owner, slot.tr_cnt, slot.balance);
   * ```
   */
  slot(cuid: string, metaIdx: number, options?: SlotReadOptions): Promise<SlotResponse> {
    return readSlot(this.#api, cuid, metaIdx, options);
  }

  /**
   * Server-side refresh (spec 9, v4): exchanges a refresh token for a new access token and a NEW
   * refresh token (`POST /oauth/token`, `grant_type=refresh_token`). Refresh tokens come in the slot
   * info (`refresh_token`) when your client is registered with the `refresh_token` grant. Each one
   * works once: store the returned `refresh_token` in place of the old one. Two refreshes with the
   * same token within a few seconds (concurrent requests) both succeed; a token used again later ends
   * the whole session (the service assumes it was stolen), and so do logout and revocation.
   *
   * @throws {@link SlotgateBackendError} `refresh_rejected` (401: sign the user in again), `service_error`
   *   (e.g. `unauthorized_client` when the client is not registered for refresh), `network_error`,
   *   `invalid_response`, `aborted` or `invalid_argument`
   * @example
   * ```ts
   * const slot = await slotgate.getSlotInfo(jwt);
   * session.set({ accessToken: slot.access_token, refreshToken: slot.refresh_token });
   * // an hour later, when the access token has expired:
   * const next = await slotgate.refreshAccessToken(session.refreshToken);
   * session.set({ accessToken: next.access_token, refreshToken: next.refresh_token });
   * ```
   */
  refreshAccessToken(refreshToken: string, options?: RefreshOptions): Promise<RefreshedTokens> {
    return refreshAccessToken({ api: this.#api, clientId: this.#config.clientId, clientSecret: this.#clientSecret }, refreshToken, options);
  }

  /**
   * Verifies an agent delegation token (spec 4.13). Use an instance whose
   * `authServerUrl` is the delegation server. Assumed, as the spec leaves it
   * open: the token is a JWS signed with a key published at
   * `{authServerUrl}/.well-known/jwks.json` (asymmetric algorithms only),
   * `iss` equals `authServerUrl`, `aud` contains this `clientId`, and `sub`
   * and `exp` are present (30 s clock tolerance). Keys are cached; an
   * unknown `kid` triggers a refetch at most every 30 s (jose's cooldown).
   *
   * @throws {@link SlotgateBackendError} `missing_token`, `expired_token`, `invalid_agent_token` (401) or `keys_unavailable` (503)
   * @example
   * ```ts
   * const delegation = new SlotgateBackend({ ...options, authServerUrl: "https://delegation.example" });
   * const claims = await delegation.verifyAgentToken(req.headers["x-agent-token"]);
   * console.log(claims.sub, claims.scope);
   * ```
   */
  verifyAgentToken(token: string, options?: VerifyAgentTokenOptions): Promise<AgentTokenClaims> {
    return verifyAgentToken(
      { authServerUrl: this.#config.authServerUrl, clientId: this.#config.clientId, fetch: this.#fetch },
      this.#agentKeys(),
      token,
      options,
    );
  }

  /** A description without the secret. */
  toString(): string {
    return `SlotgateBackend(${this.#config.clientId} @ ${this.#config.authServerUrl})`;
  }

  /** JSON view without the secret. */
  toJSON(): Readonly<ResolvedConfig> {
    return this.#config;
  }

  /** `util.inspect` / `console.log` view without the secret. */
  [Symbol.for("nodejs.util.inspect.custom")](): string {
    return this.toString();
  }
}

export { SlotgateBackendError };
