import { GRANT_TYPES, PATHS } from "@slotgate/protocol";
import { deviceAuthorizationRequestSchema, userCodeSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../app/services.js";
import { csrfMatches, issueCsrfToken } from "../authorize/csrf.js";
import { renderSignInForm } from "../authorize/pages.js";
import { consentDecision, signInOrSignUp } from "../authorize/sign-in.js";
import { formOrJsonBody, isPlainObject } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { sendHtml } from "../http/html.js";
import { rateLimit } from "../http/rate-limit.js";
import { parseInput, singleValued } from "../http/validate.js";
import type { ClientRow } from "../storage/clients.js";
import { decideDevice, findPendingDevice } from "../storage/device-authorizations.js";
import { identifyClient, presentedCredentials, requireGrant } from "../clients/client-auth.js";
import { formatUserCode, startDeviceAuthorization } from "./device-grant.js";
import { renderDeviceResult, renderUserCodeForm } from "./pages.js";

const UNKNOWN_CODE = "That code is unknown, expired or already used. Check the code on your device, or start again there.";

/**
 * The device authorization grant (RFC 8628): `POST /oauth/device_authorization` for the device, and
 * the verification page `/oauth/device` where the user enters the code, signs in and approves or
 * denies (as a plain page or in a popup, `display=popup`). The device polls `/oauth/token`.
 */
export function deviceRoutes(services: Services): Router {
  const router = Router();
  const secure = services.issuer.startsWith("https:");
  const signInLimit = rateLimit("sign-in", services.config.rateLimit.signInPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix);

  router.post(
    PATHS.deviceAuthorization,
    rateLimit("token", services.config.rateLimit.tokenPerMinute, services.config.rateLimit.enabled, services.redis, services.config.rateLimit.redisPrefix),
    formOrJsonBody,
    async (req: Request, res: Response) => {
      if (!isPlainObject(req.body)) throw new SlotgateServerError("invalid_request", { message: "Invalid request: the body must be an object" });
      const body = singleValued(req.body, ["client_id", "client_secret", "scope"]);
      const creds = presentedCredentials(req.headers.authorization, body);
      parseInput(deviceAuthorizationRequestSchema, { ...body, client_id: creds.clientId, client_secret: undefined });
      const client = await identifyClient(services, creds);
      requireGrant(client, GRANT_TYPES.deviceCode);
      const answer = await startDeviceAuthorization(services, client.client_id);
      res.setHeader("Cache-Control", "no-store");
      res.json(answer);
    },
  );

  const codeForm = (res: Response, status: number, options: { error?: string; userCode?: string; display?: string }) =>
    sendHtml(res, status, (nonce) => renderUserCodeForm(nonce, options));

  const signInForm = (req: Request, res: Response, status: number, page: { client: ClientRow; userCode: string; popup: boolean }, options: { error?: string; email?: string } = {}) => {
    const csrf = issueCsrfToken(req, res, secure);
    const shown = formatUserCode(page.userCode);
    sendHtml(res, status, (nonce) =>
      renderSignInForm(
        nonce,
        { action: PATHS.deviceVerification, fields: { user_code: shown, display: page.popup ? "popup" : undefined }, appName: page.client.name, note: `The device showing ${shown} will be signed in.` },
        csrf,
        // Accounts are created (and their mailbox proven) on the authorize page; this page signs in verified accounts.
        { ...options, signup: false },
      ),
    );
  };

  /** The pending authorization a submitted user code names, with its client; null after answering with the code form. */
  const pendingFor = async (res: Response, input: string | undefined, display: string | undefined): Promise<{ client: ClientRow; userCode: string } | null> => {
    const parsed = userCodeSchema.safeParse(input ?? "");
    if (!parsed.success) {
      codeForm(res, 400, { error: "Enter the 8-letter code shown on your device, e.g. BDFH-JKLM.", userCode: input ?? "", ...(display ? { display } : {}) });
      return null;
    }
    const pending = await findPendingDevice(services.db, parsed.data);
    const client = pending ? await services.clients.get(pending.client_id) : null;
    if (!client) {
      codeForm(res, 400, { error: UNKNOWN_CODE, userCode: input ?? "", ...(display ? { display } : {}) });
      return null;
    }
    return { client, userCode: parsed.data };
  };

  router.get(PATHS.deviceVerification, signInLimit, async (req: Request, res: Response) => {
    const query = singleValued(req.query, ["user_code", "display"]);
    const display = query.display === "popup" ? "popup" : undefined;
    if (!query.user_code) return codeForm(res, 200, display ? { display } : {});
    const page = await pendingFor(res, query.user_code, display);
    if (page) signInForm(req, res, 200, { ...page, popup: display === "popup" });
  });

  router.post(PATHS.deviceVerification, signInLimit, formOrJsonBody, async (req: Request, res: Response) => {
    const body = (isPlainObject(req.body) ? req.body : {}) as Record<string, unknown>;
    const fields = singleValued(body, ["user_code", "display"]);
    if (!csrfMatches(req, body["csrf_token"])) throw new SlotgateServerError("csrf_failed");
    const decision = consentDecision(body);
    const popup = fields.display === "popup";
    const page = await pendingFor(res, fields.user_code, popup ? "popup" : undefined);
    if (!page) return;
    let userId: string | null = null;
    if (decision === "approve") {
      const outcome = await signInOrSignUp(services, body);
      if (!outcome.user) {
        if (outcome.retryAfterSeconds !== undefined) res.setHeader("Retry-After", String(outcome.retryAfterSeconds));
        return signInForm(req, res, outcome.status, { ...page, popup }, { error: outcome.error, email: outcome.email });
      }
      userId = outcome.user.id;
    }
    const decided = await decideDevice(services.db, page.userCode, userId === null ? { approved: false } : { approved: true, userId });
    if (!decided) return codeForm(res, 400, { error: UNKNOWN_CODE, ...(popup ? { display: "popup" } : {}) });
    const approved = userId !== null;
    sendHtml(res, 200, (nonce) => renderDeviceResult(nonce, { approved, appName: page.client.name, popup, openerOrigin: new URL(page.client.web_url).origin }));
  });

  return router;
}
