import { ChainServiceError } from "@slotgate/chain-service";
import { PATHS } from "@slotgate/protocol";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../config/logger.js";
import { SlotgateServerError } from "./errors.js";
import { renderErrorPage } from "./error-page.js";
import { sendHtml } from "./html.js";
import { negotiateLocale, translator } from "../i18n/translator.js";

function wantsHtml(req: Request): boolean {
  return (req.headers.accept ?? "").includes("text/html");
}

/** 404 not_found for every unknown route. */
export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new SlotgateServerError("not_found"));
}

/**
 * Every error the server knows, as a {@link SlotgateServerError}: its own errors as they are, and the
 * chain service's (in process or from the gRPC process) with the same stable code and status;
 * `pin_locked` gets `Retry-After`, other machine-readable facts (e.g. `remaining_attempts`) become
 * `details`. Null for anything else (an unexpected error).
 *
 * @example
 * ```ts
 * const known = asServerError(error);
 * if (known) console.error(JSON.stringify(known.toBody()));
 * ```
 */
export function asServerError(error: unknown): SlotgateServerError | null {
  if (error instanceof SlotgateServerError) return error;
  if (error instanceof ChainServiceError) {
    const details = error.details ? Object.entries(error.details).map(([path, value]) => ({ path, message: String(value) })) : undefined;
    const retry = error.details?.["retry_after_seconds"];
    return new SlotgateServerError(error.code, {
      message: error.message,
      ...(details ? { details } : {}),
      ...(retry !== undefined ? { headers: { "Retry-After": String(retry) } } : {}),
      cause: error,
    });
  }
  return null;
}

/**
 * The error middleware, the one place errors become wire answers: every error leaves as `{ success:false, error, message, details? }` with
 * the catalogue status (token and device authorization endpoints: plus `error_description`); browser pages of the
 * authorize flow get an HTML page with the same status. Unexpected errors are logged without
 * request data and answered as 500 internal_error.
 */
export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let err = asServerError(error);
    if (err === null) {
      log.error("unhandled error", { method: req.method, path: req.path, error: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" });
      err = new SlotgateServerError("internal_error");
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    const page = req.path === PATHS.authorize || req.path === PATHS.deviceVerification || req.path === PATHS.identityProviderCallback;
    // The wallet window's pages (GET) answer their refusals as a page too; its posts are the page script's JSON.
    if ((page || (req.method === "GET" && req.path.startsWith("/wallet/"))) && wantsHtml(req)) {
      const shownError = err;
      // The page's language from the request's own ui_locales (query or form), then Accept-Language; a bad value is just not matched.
      const body = (req.body && typeof req.body === "object" ? req.body : {}) as Record<string, unknown>;
      const tr = translator(negotiateLocale(req.query["ui_locales"] ?? body["ui_locales"], req));
      sendHtml(res, err.status, (nonce) => renderErrorPage(nonce, shownError, tr));
      return;
    }
    res.setHeader("Cache-Control", "no-store");
    res.status(err.status).json(err.toBody(req.path === PATHS.token || req.path === PATHS.deviceAuthorization));
  };
}
