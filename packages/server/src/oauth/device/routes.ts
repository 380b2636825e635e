import { GRANT_TYPES, PATHS } from "@slotgate/protocol";
import { deviceAuthorizationRequestSchema, uiLocalesSchema, userCodeSchema } from "@slotgate/protocol/schemas";
import { type Request, type Response, Router } from "express";
import type { Services } from "../../platform/app/services.js";
import { csrfMatches, issueCsrfToken } from "../authorize/csrf.js";
import { renderSignInForm } from "../authorize/pages.js";
import { consentDecision, signInOrSignUp } from "../authorize/sign-in.js";
import { formOrJsonBody, isPlainObject } from "../../platform/http/input.js";
import { SlotgateServerError } from "../../platform/http/errors.js";
import { sendHtml } from "../../platform/http/html.js";
import { serviceRateLimit } from "../../platform/http/rate-limit.js";
import { parseInput, singleValued } from "../../platform/http/input.js";
import type { PageBrand } from "../../platform/http/page-brand.js";
import { clientPageBrand } from "../clients/client-brand.js";
import type { ClientRow } from "../clients/clients-store.js";
import { decideDevice, findPendingDevice } from "./device-authorizations-store.js";
import { identifyClient, presentedCredentials, requireGrant } from "../clients/client-auth.js";
import { formatUserCode, startDeviceAuthorization } from "./device-grant.js";
import { renderDeviceResult, renderUserCodeForm } from "./pages.js";
import { negotiateLocale, type Shown, shown, translator } from "../../platform/i18n/translator.js";

const UNKNOWN_CODE = shown("error.unknownUserCode");

/** A device's client brand beside its registered web URL's origin (a device flow redirects nowhere). */
function deviceBrand(client: ClientRow): PageBrand {
  return clientPageBrand(client, new URL(client.web_url).origin);
}

/** The page's `ui_locales` (query of a GET, form field of a POST), validated; undefined when not given. */
function uiLocalesOf(req: Request): string | undefined {
  const value = singleValued(req.method === "GET" ? req.query : req.body, ["ui_locales"]).ui_locales;
  return value ? parseInput(uiLocalesSchema, value) : undefined;
}

/**
 * The device authorization grant (RFC 8628): `POST /oauth/device_authorization` for the device, and
 * the verification page `/oauth/device` where the user enters the code, signs in and approves or
 * denies (as a plain page or in a popup, `display=popup`). The device polls `/oauth/token`.
 */
export function deviceRoutes(services: Services): Router {
  const router = Router();
  const secure = services.issuer.startsWith("https:");
  const signInLimit = serviceRateLimit(services, "sign-in", services.config.rateLimit.signInPerMinute);

  router.post(
    PATHS.deviceAuthorization,
    serviceRateLimit(services, "token", services.config.rateLimit.tokenPerMinute),
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

  /** The page language: `ui_locales` of the query or form, then `Accept-Language`, then English. */
  const language = (req: Request) => translator(negotiateLocale(uiLocalesOf(req), req));

  const codeForm = (req: Request, res: Response, status: number, options: { error?: Shown; userCode?: string; display?: string }) => {
    const uiLocales = uiLocalesOf(req);
    sendHtml(res, status, (nonce) => renderUserCodeForm(nonce, language(req), uiLocales ? { ...options, uiLocales } : options));
  };

  const signInForm = (
    req: Request,
    res: Response,
    status: number,
    page: { client: ClientRow; userCode: string; popup: boolean },
    options: { error?: Shown; email?: string } = {},
  ) => {
    const csrf = issueCsrfToken(req, res, secure);
    const displayed = formatUserCode(page.userCode);
    const brand = deviceBrand(page.client);
    sendHtml(
      res,
      status,
      (nonce) =>
        renderSignInForm(
          nonce,
          language(req),
          {
            action: PATHS.deviceVerification,
            fields: { user_code: displayed, display: page.popup ? "popup" : undefined, ui_locales: uiLocalesOf(req) },
            appName: brand.name,
            note: { id: "device.note", values: { code: displayed } },
            brand,
          },
          csrf,
          // Accounts are created (and their mailbox proven) on the authorize page; this page signs in verified accounts.
          { ...options, signup: false },
        ),
      { imagesSelf: brand.logoUrl !== undefined },
    );
  };

  /** The pending authorization a submitted user code names, with its client; null after answering with the code form. */
  const pendingFor = async (
    req: Request,
    res: Response,
    input: string | undefined,
    display: string | undefined,
  ): Promise<{ client: ClientRow; userCode: string } | null> => {
    const parsed = userCodeSchema.safeParse(input ?? "");
    if (!parsed.success) {
      codeForm(req, res, 400, { error: shown("error.badUserCode"), userCode: input ?? "", ...(display ? { display } : {}) });
      return null;
    }
    const pending = await findPendingDevice(services.db, parsed.data);
    const client = pending ? await services.clients.get(pending.client_id) : null;
    if (!client) {
      codeForm(req, res, 400, { error: UNKNOWN_CODE, userCode: input ?? "", ...(display ? { display } : {}) });
      return null;
    }
    return { client, userCode: parsed.data };
  };

  router.get(PATHS.deviceVerification, signInLimit, async (req: Request, res: Response) => {
    const query = singleValued(req.query, ["user_code", "display"]);
    const display = query.display === "popup" ? "popup" : undefined;
    if (!query.user_code) return codeForm(req, res, 200, display ? { display } : {});
    const page = await pendingFor(req, res, query.user_code, display);
    if (page) signInForm(req, res, 200, { ...page, popup: display === "popup" });
  });

  router.post(PATHS.deviceVerification, signInLimit, formOrJsonBody, async (req: Request, res: Response) => {
    const body = (isPlainObject(req.body) ? req.body : {}) as Record<string, unknown>;
    const fields = singleValued(body, ["user_code", "display"]);
    if (!csrfMatches(req, body["csrf_token"])) throw new SlotgateServerError("csrf_failed");
    const decision = consentDecision(body);
    const popup = fields.display === "popup";
    const page = await pendingFor(req, res, fields.user_code, popup ? "popup" : undefined);
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
    if (!decided) return codeForm(req, res, 400, { error: UNKNOWN_CODE, ...(popup ? { display: "popup" } : {}) });
    const approved = userId !== null;
    const brand = deviceBrand(page.client);
    sendHtml(
      res,
      200,
      (nonce) => renderDeviceResult(nonce, language(req), { brand, approved, appName: brand.name, popup, openerOrigin: new URL(page.client.web_url).origin }),
      { imagesSelf: brand.logoUrl !== undefined },
    );
  });

  return router;
}
