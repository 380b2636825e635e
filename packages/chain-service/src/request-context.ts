import { AsyncLocalStorage } from "node:async_hooks";

/** What follows one request through the process: its id (the HTTP `X-Request-Id`). */
export interface RequestContext {
  requestId: string;
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
