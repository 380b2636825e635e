import { http } from "msw";
import type { MockContext } from "../context.js";
import { HttpError } from "../http/http-error.js";
import { errorResponse } from "../http/respond.js";

/** Whether a request path is one of a served row's paths (`{name}` parameters match one segment). */
function servedPath(ctx: MockContext, path: string): boolean {
  return ctx.endpoints.some((row) => new RegExp(`^${row.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{\w+\}/g, "[^/]+")}$`).test(path));
}

/** Any other request under the base URL: 405 method_not_allowed on a path the simulation serves, else 404 not_found. */
export function fallbackHandlers(ctx: MockContext) {
  return [
    http.all(`${ctx.baseUrl}/*`, ({ request }) => {
      const path = new URL(request.url).pathname;
      return errorResponse(new HttpError(servedPath(ctx, path) ? "method_not_allowed" : "not_found"));
    }),
  ];
}
