import { currentRequestId } from "@slotgate/chain-service";
import pino from "pino";
import type { LogLevel } from "./config.js";

/**
 * The server's structured logger (pino underneath): a message and fields, one JSON object per line.
 * Callers pass only non-secret fields; {@link REDACTED_KEYS} are censored anyway, wherever they appear
 * in the fields (up to three levels deep), so a mistake does not leak a secret.
 */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** A logger whose lines all carry `bindings` (e.g. `{ request_id }` or `{ component: "chain-service" }`). */
  child(bindings: Record<string, unknown>): Logger;
  /** Whether lines of `level` are written (skip building costly fields otherwise). */
  isLevelEnabled(level: Exclude<LogLevel, "silent">): boolean;
}

/**
 * Field names whose values never reach a log line: they are replaced by `"[redacted]"` at any of the
 * first three levels of the fields (`{ client_secret }`, `{ body: { pin_hash } }`,
 * `{ req: { headers: { authorization } } }`).
 */
export const REDACTED_KEYS = [
  "password",
  "new_password",
  "client_secret",
  "clientSecret",
  "secret",
  "pepper",
  "pin_hash",
  "pinHash",
  "new_pin_hash",
  "pin_salt",
  "key_share_user",
  "key_share",
  "keyShare",
  "share_pin",
  "mnemonic",
  "aes_key",
  "aesKey",
  "aes_iv",
  "kek",
  "keyEncryptionKey",
  "recoveryKey",
  "recovery_key",
  "private_key",
  "privateKey",
  "d",
  "authorization",
  "cookie",
  "set-cookie",

  "code_verifier",
  "device_code",
  "user_code",
  "access_token",
  "refresh_token",
  "id_token",
  "token",
  "user_jwt",
  "assertion",
] as const;

const REDACT_PATHS = REDACTED_KEYS.flatMap((key) => {
  const k = /^[A-Za-z_$][\w$]*$/.test(key) ? key : `["${key}"]`;
  const join = (prefix: string) => (k.startsWith("[") ? `${prefix}${k}` : `${prefix}.${k}`);
  return [k, join("*"), join("*.*")];
});

function wrap(p: pino.Logger): Logger {
  return {
    debug: (msg, fields) => (fields ? p.debug(fields, msg) : p.debug(msg)),
    info: (msg, fields) => (fields ? p.info(fields, msg) : p.info(msg)),
    warn: (msg, fields) => (fields ? p.warn(fields, msg) : p.warn(msg)),
    error: (msg, fields) => (fields ? p.error(fields, msg) : p.error(msg)),
    child: (bindings) => wrap(p.child(bindings)),
    isLevelEnabled: (level) => p.isLevelEnabled(level),
  };
}

/**
 * Creates a pino logger writing one JSON object per line (`time` ISO 8601, `level` as a word, `msg`,
 * then the fields) to stderr, or to `write` (each line without its newline; tests collect them).
 * Secrets named in {@link REDACTED_KEYS} are censored; lines written while a request is served carry
 * its `request_id`.
 *
 * @example
 * ```ts
 * const log = createLogger("info");
 * log.info("listening", { url: "http://127.0.0.1:8080" });
 * log.child({ request_id: "4f1c…" }).warn("code replayed", { client_id: "game" });
 * ```
 */
export function createLogger(level: LogLevel, write?: (line: string) => void): Logger {
  const destination = write
    ? { write: (chunk: string) => write(chunk.endsWith("\n") ? chunk.slice(0, -1) : chunk) }
    : pino.destination({ dest: 2, sync: true });
  return wrap(
    pino(
      {
        level,
        base: null,
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
        redact: { paths: REDACT_PATHS, censor: "[redacted]" },
        // Every line written while a request is served carries its id (the chain service's too).
        mixin: () => {
          const id = currentRequestId();
          return id === undefined ? {} : { request_id: id };
        },
      },
      destination,
    ),
  );
}
