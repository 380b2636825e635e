import { PATHS } from "@slotgate/protocol";
import type { NextFunction, Request, Response } from "express";
import type { Logger } from "../config/logger.js";
import { SlotgateServerError } from "./errors.js";
import { escapeHtml, PAGE_STYLE, sendHtml } from "./html.js";

function wantsHtml(req: Request): boolean {
  return (req.headers.accept ?? "").includes("text/html");
}

/** 404 not_found for every unknown route. */
export function notFound(_req: Request, _res: Response, next: NextFunction): void {
  next(new SlotgateServerError("not_found"));
}

/**
 * The error middleware: every error leaves as `{ success:false, error, message, details? }` with
 * the catalogue status (token endpoint: plus `error_description`); browser pages of the
 * authorize flow get an HTML page with the same status. Unexpected errors are logged without
 * request data and answered as 500 internal_error.
 */
export function errorHandler(log: Logger) {
  return (error: unknown, req: Request, res: Response, _next: NextFunction): void => {
    let err: SlotgateServerError;
    if (error instanceof SlotgateServerError) err = error;
    else {
      log.error("unhandled error", { method: req.method, path: req.path, error: error instanceof Error ? `${error.name}: ${error.message}` : "unknown" });
      err = new SlotgateServerError("internal_error");
    }
    if (res.headersSent) return;
    for (const [k, v] of Object.entries(err.headers)) res.setHeader(k, v);
    if (req.path === PATHS.authorize && wantsHtml(req)) {
      sendHtml(res, err.status, (nonce) =>
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error</title><style nonce="${nonce}">${PAGE_STYLE}</style></head>` +
        `<body><h1>Cannot continue</h1><p class="error" id="slotgate-error" data-code="${escapeHtml(err.code)}">${escapeHtml(err.code)}</p>` +
        `<p>${escapeHtml(err.message)}</p></body></html>`,
      );
      return;
    }
    res.setHeader("Cache-Control", "no-store");
    res.status(err.status).json(err.toBody(req.path === PATHS.token));
  };
}
