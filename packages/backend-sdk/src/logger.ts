/**
 * Where the SDK reports what it must not throw: ignored callbacks, failed
 * status syncs, Redis forwarding problems. Messages and fields never contain
 * the client secret, a JWT or an access token.
 *
 * @example
 * ```ts
 * import pino from "pino";
 * const log = pino();
 * const logger: Logger = {
 *   debug: (msg, fields) => log.debug(fields ?? {}, msg),
 *   warn: (msg, fields) => log.warn(fields ?? {}, msg),
 *   error: (msg, fields) => log.error(fields ?? {}, msg),
 * };
 * new SlotgateBackend({ ...options, logger });
 * ```
 */
export interface Logger {
  debug(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/**
 * The default logger: `console.warn` / `console.error` with a `[slotgate]` prefix; debug is silent.
 *
 * @example
 * ```ts
 * new SlotgateBackend({ ...options, logger: consoleLogger });
 * ```
 */
export const consoleLogger: Logger = {
  debug() {},
  warn(message, fields) {
    console.warn(`[slotgate] ${message}`, fields ?? "");
  },
  error(message, fields) {
    console.error(`[slotgate] ${message}`, fields ?? "");
  },
};

/**
 * A logger that drops everything.
 *
 * @example
 * ```ts
 * new SlotgateBackend({ ...options, logger: silentLogger });
 * ```
 */
export const silentLogger: Logger = { debug() {}, warn() {}, error() {} };
