import type { Request, Response } from "express";
import type { Services } from "../../platform/app/services.js";
import { deliverApproval } from "./deliver.js";
import type { PendingSignIn } from "./mailbox-step.js";
import type { AuthorizeRequest } from "./params.js";
import { offerPasskey } from "./passkey-sign-in.js";
import type { AuthorizeViews } from "./views.js";

/** The user is known, however they signed in: approve, after the "Create a passkey" page when they asked for it. */
export async function finishSignIn(
  services: Services,
  req: Request,
  res: Response,
  request: AuthorizeRequest,
  views: AuthorizeViews,
  userId: string,
  pending: PendingSignIn,
): Promise<void> {
  if (pending.add_passkey && services.passkeys.enabled) return offerPasskey(services, req, views, userId);
  await deliverApproval(services, res, request, userId);
}
