import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { CALLBACK_PATH, LOOPBACK_HOST } from "../config.js";
import { GameSdkBridgeError } from "../errors.js";
import { type CallbackOutcome, interpretCallback, type RedirectAnswer } from "./callback.js";
import { failurePage, notFoundPage, PAGE_HEADERS, successPage } from "./pages.js";

/** A running loopback listener waiting for the sign-in redirect. @internal */
export interface CallbackListener {
  /** The bound address; always `127.0.0.1`. */
  readonly address: string;
  /** The bound port (the ephemeral one when port 0 was asked for). */
  readonly port: number;
  /** Settles with the first redirect to `/callback`, after its page reached the browser. */
  readonly outcome: Promise<CallbackOutcome>;
  /** Stops listening and drops every open connection. Safe to call more than once. */
  close(): Promise<void>;
}

function listenError(error: NodeJS.ErrnoException, port: number): GameSdkBridgeError {
  if (error.code === "EADDRINUSE") {
    return new GameSdkBridgeError(
      "port_in_use",
      `Port ${port} on ${LOOPBACK_HOST} is already in use by another program. Close it, or register another loopback ` + "redirect URI and use its port.",
      { cause: error },
    );
  }
  const reason = error.code === "EACCES" ? "permission denied (ports below 1024 need privileges)" : (error.code ?? "unknown error");
  return new GameSdkBridgeError("listen_failed", `Cannot listen on ${LOOPBACK_HOST}:${port}: ${reason}.`, { cause: error });
}

/** Turns the redirect's answer into the login's outcome: a code is redeemed (with the PKCE verifier) before the page is sent. */
async function settleAnswer(answer: RedirectAnswer, redeem: (code: string) => Promise<string>): Promise<CallbackOutcome> {
  if (!answer.ok || !("code" in answer)) return answer;
  try {
    return { ok: true, jwt: await redeem(answer.code) };
  } catch (error) {
    const known =
      error instanceof GameSdkBridgeError
        ? error
        : new GameSdkBridgeError("internal_error", "Unexpected error while redeeming the sign-in code.", { cause: error });
    return { ok: false, error: known };
  }
}

/**
 * Listens on `127.0.0.1:<port>` (never on all interfaces; port 0: the one the operating system
 * picks) for the sign-in redirect. Requests with another Host header (DNS rebinding), another path or
 * method get a 404/405 page and do not end the login; the first GET to
 * `/callback` decides it. A redirect with a code is answered once `redeem` has turned it into the
 * JWT (or failed), so the page the player sees tells the truth.
 *
 * @throws {@link GameSdkBridgeError} `port_in_use` or `listen_failed`.
 * @internal
 */
export async function startCallbackListener(port: number, expectedState: string, redeem: (code: string) => Promise<string>): Promise<CallbackListener> {
  // A promise settles once; later calls are no-ops.
  let settle: (outcome: CallbackOutcome) => void = () => {};
  const outcome = new Promise<CallbackOutcome>((resolve) => {
    settle = resolve;
  });

  // Set by the first decisive request, before its page is flushed, so later requests are turned away.
  let decided = false;
  let allowedHosts: Set<string> = new Set();
  const send = (res: ServerResponse, status: number, html: string, then?: () => void) => {
    // The page was flushed, or the browser went away (perhaps while the code was redeemed): either way the redirect decided.
    if (then) res.once("close", then);
    res.writeHead(status, PAGE_HEADERS);
    res.end(html, then);
  };

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let url: URL | undefined;
    try {
      url = new URL(req.url ?? "/", `http://${LOOPBACK_HOST}`);
    } catch {
      url = undefined;
    }
    if (decided || url === undefined || !allowedHosts.has(req.headers.host ?? "") || url.pathname !== CALLBACK_PATH) {
      send(res, 404, notFoundPage());
      return;
    }
    if (req.method !== "GET") {
      res.setHeader("Allow", "GET");
      send(res, 405, notFoundPage());
      return;
    }
    decided = true;
    void settleAnswer(interpretCallback(url.searchParams, expectedState), redeem).then((result) => {
      const deliver = () => settle(result);
      if (result.ok) send(res, 200, successPage(), deliver);
      else send(res, 400, failurePage(result.error.message), deliver);
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => reject(listenError(error, port)));
    server.listen({ host: LOOPBACK_HOST, port, exclusive: true }, () => resolve());
  });
  server.on("error", (error: NodeJS.ErrnoException) => {
    settle({ ok: false, error: listenError(error, port) });
  });

  const address = server.address() as AddressInfo;
  allowedHosts = new Set([`${LOOPBACK_HOST}:${address.port}`]);
  if (address.port === 80) allowedHosts.add(LOOPBACK_HOST);

  let closing: Promise<void> | undefined;
  return {
    address: address.address,
    port: address.port,
    outcome,
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
