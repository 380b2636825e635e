import { shared } from "../../../../lib/backend";

export const dynamic = "force-dynamic";

/**
 * The backend SDK's callback (spec 4.4): the service POSTs `code`, `state` and `success` in the query. The
 * backend SDK's web-standard `handleCallback(request): Promise<Response>` runs unchanged in a route handler and
 * hands the callback to the `getSlotInfo` call waiting in `app/api/slot/route.ts` (same process, same instance).
 */
export const POST = (request: Request): Promise<Response> => shared().backend.handleCallback(request);
export const GET = POST;
