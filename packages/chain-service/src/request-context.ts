import { AsyncLocalStorage } from "node:async_hooks";

/** What follows one request through the process: its id (the HTTP `X-Request-Id`). */
export interface RequestContext {
  requestId: string | undefined;
  /** Set for a call that arrived over a transport (gRPC): the caller assertion it carried, if any. */
  remote?: { assertion: string | null };
}

const storage = new AsyncLocalStorage<RequestContext>();

/**
 * Runs `fn` with `requestId` as the current request's id: the chain service's log lines and the
 * writes it records in `fn` (and in everything `fn` starts) carry it. The HTTP layer calls it once per
 * request; the gRPC server once per call, with the id of the `x-request-id` metadata.
 *
 * @example
 * ```ts
 * await runWithRequestId(req.get("X-Request-Id") ?? randomUUID(), () => chain.buyContentToken(body));
 * ```
 */
export function runWithRequestId<T>(requestId: string, fn: () => T): T {
  return storage.run({ requestId }, fn);
}

/**
 * Runs `fn` as a call that arrived from another process (the gRPC server runs each call so): the chain
 * service then requires a caller assertion for every call made for a user (`assertion`: the one the call
 * carried, or null), and the call's log lines and writes carry `requestId`.
 *
 * @example
 * ```ts
 * await runRemoteCall({ requestId, assertion: metadata.get("slotgate-caller-assertion")[0] ?? null }, () => service.verifyPin(body));
 * ```
 */
export function runRemoteCall<T>(call: { requestId: string | undefined; assertion: string | null }, fn: () => T): T {
  return storage.run({ requestId: call.requestId, remote: { assertion: call.assertion } }, fn);
}

/** @internal The transport call being served (its assertion), or undefined for an in-process call. */
export function currentRemoteCall(): RequestContext["remote"] {
  return storage.getStore()?.remote;
}

/**
 * The id of the request being served, or undefined outside one.
 *
 * @example
 * ```ts
 * log.info("sent", { request_id: currentRequestId() });
 * ```
 */
export function currentRequestId(): string | undefined {
  return storage.getStore()?.requestId;
}

/**
 * Runs `fn` outside any request (background work started from a request, such as a delivery pass,
 * must not carry that request's id).
 *
 * @example
 * ```ts
 * runOutsideRequest(() => worker.pass());
 * ```
 */
export function runOutsideRequest<T>(fn: () => T): T {
  return storage.exit(fn);
}
