import { http } from "msw";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { errorResponse } from "../http/respond.js";

/** Paths (relative) with at least one handler, for 405 instead of 404. */
const KNOWN = [
  /^\/v1\/dev-user\/(signup|login_devuser|clients)$/,
  /^\/oauth\/(authorize|token)$/,
  /^\/v1\/oauth\/(validate|revoke|status\/(login|logout|check))$/,
  /^\/v1\/oauth-meta\/(authorize|get_token)$/,
  /^\/v1\/development-api\/(init_permission_provider|user_buy_content_token|increase_used_content_token|release_used_balance|test_encryption|balance_adex\/[^/]+)$/,
  /^\/\.well-known\/(jwks\.json|oauth-authorization-server)$/,
  /^\/v1\/slots(\/activate|\/[^/]+\/[^/]+)?$/,
  /^\/idex-platform\/exchange_token_owner$/,
  /^\/healthz$/,
];

/** Any other request under the base URL: 405 method_not_allowed on a known path, else 404 not_found. */
export function fallbackHandlers(ctx: MockContext) {
  return [
    http.all(`${ctx.baseUrl}/*`, ({ request }) => {
      const path = new URL(request.url).pathname;
      const known = KNOWN.some((re) => re.test(path));
      return errorResponse(new HttpError(known ? "method_not_allowed" : "not_found"));
    }),
  ];
}
