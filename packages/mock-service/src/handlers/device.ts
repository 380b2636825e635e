import { GRANT_TYPES } from "@slotgate/protocol";
import { ENDPOINTS } from "@slotgate/protocol/endpoints";
import { deviceAuthorizationRequestSchema, userCodeSchema } from "@slotgate/protocol/schemas";
import { http } from "msw";
import { activeClient, identifyClient, requireGrant } from "../clients.js";
import { type MockContext, endpointUrl } from "../context.js";
import { formatUserCode, pendingDevice, startDevice } from "../devices.js";
import { basicCredentials } from "../http/auth.js";
import { queryRecord, readParams, validate } from "../http/body.js";
import { HttpError } from "../http/http-error.js";
import { guard, json } from "../http/respond.js";
import { deviceResultPage, deviceSignInPage, userCodePage } from "../html/device-page.js";
import { html } from "../html/escape.js";
import { randomBase64url } from "../random.js";
import { CSRF_COOKIE, checkCsrf, signInOrSignUp } from "../sign-in.js";
import type { ClientRecord, DeviceRecord } from "../state.js";
import { NO_STORE } from "./token.js";

const UNKNOWN_CODE = "That code is unknown, expired or already used.";

/** `POST /oauth/device_authorization` and the verification page `GET`/`POST /oauth/device` (RFC 8628). */
export function deviceHandlers(ctx: MockContext) {
  const signInPage = (device: DeviceRecord, client: ClientRecord, extra: { error?: string; email?: string; status?: number } = {}) => {
    const csrf = randomBase64url(24);
    return html(deviceSignInPage({ userCode: formatUserCode(device.user_code), csrfToken: csrf, clientName: client.name, ...extra }), extra.status ?? 200, {
      "Set-Cookie": `${CSRF_COOKIE}=${csrf}; Path=/oauth; HttpOnly; SameSite=Lax`,
    });
  };
  /** The pending device and its client for a typed user code, or the code page to answer with. */
  const lookup = (input: unknown): { device: DeviceRecord; client: ClientRecord } | Response => {
    const typed = typeof input === "string" ? input : "";
    const parsed = userCodeSchema.safeParse(typed);
    const device = parsed.success ? pendingDevice(ctx, parsed.data) : undefined;
    const client = device ? activeClient(ctx, device.client_id) : undefined;
    if (!device || !client) return html(userCodePage({ error: UNKNOWN_CODE, userCode: typed }), 400);
    return { device, client };
  };
  return [
    http.post(endpointUrl(ctx, ENDPOINTS.deviceAuthorization), ({ request }) =>
      guard(
        async () => {
          await ctx.ready();
          const body = await readParams(request, ctx.bodyLimit);
          const basic = basicCredentials(request);
          if (basic && body["client_secret"] !== undefined)
            throw new HttpError("invalid_request", { message: "Send the client credentials either in HTTP Basic or in the body, not both." });
          const params = validate(deviceAuthorizationRequestSchema, { ...body, ...(basic ? { client_id: basic.id } : {}) });
          const client = identifyClient(ctx, params.client_id, basic ? basic.secret : params.client_secret);
          requireGrant(client, GRANT_TYPES.deviceCode);
          return json(startDevice(ctx, client.client_id), 200, NO_STORE);
        },
        { withDescription: true, headers: NO_STORE },
      ),
    ),
    http.get(endpointUrl(ctx, ENDPOINTS.deviceVerification), async ({ request }) => {
      await ctx.ready();
      const query = queryRecord(new URL(request.url));
      if (!query["user_code"]) return html(userCodePage({}));
      const found = lookup(query["user_code"]);
      return found instanceof Response ? found : signInPage(found.device, found.client);
    }),
    http.post(endpointUrl(ctx, ENDPOINTS.deviceVerification), ({ request }) =>
      guard(async () => {
        await ctx.ready();
        const form = await readParams(request, ctx.bodyLimit);
        checkCsrf(ctx, request, form);
        if (form["decision"] !== "approve" && form["decision"] !== "deny")
          throw new HttpError("invalid_request", { message: "decision must be approve or deny." });
        const found = lookup(form["user_code"]);
        if (found instanceof Response) return found;
        if (form["decision"] === "deny") {
          found.device.status = "denied";
          return html(deviceResultPage(false));
        }
        const signedIn = await signInOrSignUp(ctx, form);
        if (!signedIn.user) return signInPage(found.device, found.client, { error: signedIn.error, email: signedIn.email, status: signedIn.status });
        found.device.status = "approved";
        found.device.user_id = signedIn.user.user_id;
        return html(deviceResultPage(true));
      }),
    ),
  ];
}
