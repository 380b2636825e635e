import { LIMITS, type StatusCheckResponse, type StatusLoginResponse, type StatusLogoutResponse } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { type ApiContext, callEndpoint } from "../api/call-endpoint.js";
import { SlotgateBackendError } from "../errors.js";
import type { Logger } from "../logger.js";
import type { SleepFn } from "../options.js";

/** Arguments of {@link SlotgateBackend.statusLogin} and {@link SlotgateBackend.statusLogout}. */
export interface StatusSyncArgs {
  /** The user's access token (the slot info's `access_token`). */
  accessToken: string;
  /** The user's id (the slot info's `id`). */
  userId: string;
  /** Stops retrying and cancels the request in flight. */
  signal?: AbortSignal;
}

/**
 * The outcome of a status sync. It never throws: on failure `ok` is false and
 * `error` says why; the failure has already been logged.
 */
export type StatusSyncResult<T> = { ok: true; response: T; attempts: number } | { ok: false; error: SlotgateBackendError; attempts: number };

/** What the status calls need from the backend. */
export interface StatusContext {
  api: ApiContext;
  clientId: string;
  logger: Logger;
  attempts: number;
  baseDelayMs: number;
  sleep: SleepFn;
}

/** Defaults of the retry policy. */
export const STATUS_SYNC_DEFAULTS = { attempts: LIMITS.statusRetryAttempts, baseDelayMs: 250 } as const;

/** A `setTimeout` sleep that rejects when the signal aborts. */
export const defaultSleep: SleepFn = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

function argumentError(args: StatusSyncArgs): SlotgateBackendError | undefined {
  if (args === null || typeof args !== "object") return new SlotgateBackendError("invalid_argument", { detail: "expected { accessToken, userId }" });
  if (typeof args.accessToken !== "string" || args.accessToken.trim() === "") {
    return new SlotgateBackendError("invalid_argument", { detail: "accessToken must be a non-empty string" });
  }
  if (typeof args.userId !== "string" || args.userId.trim() === "") {
    return new SlotgateBackendError("invalid_argument", { detail: "userId must be a non-empty string" });
  }
  if (args.signal !== undefined && !(args.signal instanceof AbortSignal)) {
    return new SlotgateBackendError("invalid_argument", { detail: "signal must be an AbortSignal" });
  }
  return undefined;
}

/** Whether a failure may pass on a later attempt: network errors, 408, 429 and 5xx. Other 4xx answers are final. */
function retryable(err: SlotgateBackendError): boolean {
  if (err.code === "network_error" || err.code === "invalid_response") return true;
  const s = err.serviceStatus;
  return s !== undefined && (s === 408 || s === 429 || s >= 500);
}

/** One status call (`statusLogin` or `statusLogout`); the answer is checked against the row's schema. */
async function attempt<T>(ctx: StatusContext, row: typeof ENDPOINTS.statusLogin | typeof ENDPOINTS.statusLogout, args: StatusSyncArgs): Promise<T> {
  const options = args.signal ? { signal: args.signal } : {};
  return callEndpoint(ctx.api, row, { user_id: args.userId, client_id: ctx.clientId }, { bearer: args.accessToken }, options) as Promise<T>;
}

/** Runs one status call with the recommended behaviour of spec 4.6: retried with exponential backoff, never thrown. */
export async function syncStatus<T>(ctx: StatusContext, which: "login" | "logout", args: StatusSyncArgs): Promise<StatusSyncResult<T>> {
  const bad = argumentError(args);
  if (bad) {
    ctx.logger.error(`status ${which} not sent: ${bad.message}`);
    return { ok: false, error: bad, attempts: 0 };
  }
  const row = which === "login" ? ENDPOINTS.statusLogin : ENDPOINTS.statusLogout;
  let last: SlotgateBackendError = new SlotgateBackendError("network_error");
  let made = 0;
  for (let n = 1; n <= ctx.attempts; n++) {
    made = n;
    try {
      const response = await attempt<T>(ctx, row, args);
      return { ok: true, response, attempts: n };
    } catch (err) {
      last = err instanceof SlotgateBackendError ? err : new SlotgateBackendError("network_error", { cause: err });
      const final = n === ctx.attempts || last.code === "aborted" || !retryable(last);
      ctx.logger.warn(`status ${which} attempt ${n}/${ctx.attempts} failed`, {
        code: last.code,
        error: last.error,
        serviceStatus: last.serviceStatus,
        userId: args.userId,
      });
      if (final) break;
      try {
        await ctx.sleep(ctx.baseDelayMs * 2 ** (n - 1), args.signal);
      } catch (cause) {
        last = new SlotgateBackendError("aborted", { cause });
        return { ok: false, error: last, attempts: n };
      }
    }
  }
  ctx.logger.error(`status ${which} failed; the user flow continues`, { code: last.code, userId: args.userId });
  return { ok: false, error: last, attempts: made };
}

export type { StatusLoginResponse, StatusLogoutResponse };

/** Reads the current status (`GET /v1/oauth/status/check`); throws {@link SlotgateBackendError} on failure. */
export async function checkStatus(ctx: StatusContext, args: StatusSyncArgs): Promise<StatusCheckResponse> {
  const bad = argumentError(args);
  if (bad) throw bad;
  const options = args.signal ? { signal: args.signal } : {};
  return callEndpoint(ctx.api, ENDPOINTS.statusCheck, { user_id: args.userId, client_id: ctx.clientId }, { bearer: args.accessToken }, options);
}
