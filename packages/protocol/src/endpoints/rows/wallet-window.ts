import { z } from "zod";
import { PATHS } from "../../paths.js";
import {
  createWalletConfirmationResponseSchema,
  createWalletConfirmationSchema,
  walletActionPageQuerySchema,
  walletActionParamsSchema,
  walletApproveSchema,
  walletConfirmationParamsSchema,
  walletConfirmationResponseSchema,
  walletActionResultQuerySchema,
  walletConfirmPageQuerySchema,
  walletConfirmResultQuerySchema,
  walletDenySchema,
  walletPinSetupSchema,
} from "../../schemas/wallet-window.js";
import { defineEndpoint } from "../define.js";
import { apiPath } from "../path.js";

const html = z.string().describe("An HTML page");
const outcome = z.looseObject({ success: z.literal(true), status: z.enum(["approved", "denied", "failed"]) });

/**
 * The wallet window (issue 31): a client's backend asks the player to confirm a wallet operation
 * (HTTP Basic), the player confirms it with the PIN in a popup on the service's origin, where the key
 * share stays. See docs/decisions/wallet-window.md.
 */
export const walletWindowEndpoints = [
  defineEndpoint({
    name: "createWalletConfirmation",
    method: "post",
    path: PATHS.walletConfirmations,
    auth: ["basic"],
    writes: false,
    input: { body: createWalletConfirmationSchema },
    output: { 201: createWalletConfirmationResponseSchema },
    errors: ["invalid_request", "invalid_client", "redirect_uri_mismatch", "cuid_not_owned", "wallet_not_found", "rate_limited"],
    summary:
      "Ask the player to confirm a wallet operation (approve_purchases for one of the client's cuids, token_transfer, slot_hand_over of one of its cu_ids) in the wallet window; 10 minutes",
  }),
  defineEndpoint({
    name: "getWalletConfirmation",
    method: "get",
    path: apiPath(PATHS.walletConfirmation),
    auth: ["basic"],
    input: { params: walletConfirmationParamsSchema },
    output: { 200: walletConfirmationResponseSchema },
    errors: ["invalid_request", "invalid_client", "confirmation_not_found"],
    summary: "A wallet confirmation's state and outcome (tx_hash or write_id); the creating client only",
  }),
];

/** The wallet window's pages and their same-origin form posts: listed for the OpenAPI document, mounted by hand. */
export const walletWindowPages = [
  defineEndpoint({
    name: "walletConfirmPage",
    method: "get",
    path: apiPath(PATHS.walletConfirmPage),
    transport: "page",
    auth: [],
    input: { params: walletConfirmationParamsSchema, query: walletConfirmPageQuerySchema },
    output: { 200: html },
    errors: ["invalid_request", "confirmation_not_found"],
    summary:
      "The wallet window for a backend-created confirmation: who asks, what will happen; the player of the confirmation signs with the PIN (browser session of its client)",
  }),
  defineEndpoint({
    name: "walletConfirmApprove",
    method: "post",
    path: apiPath(PATHS.walletConfirmApprove),
    transport: "form",
    auth: [],
    input: { params: walletConfirmationParamsSchema, body: walletApproveSchema },
    output: { 200: outcome },
    errors: [
      "invalid_request",
      "csrf_failed",
      "confirmation_not_found",
      "confirmation_closed",
      "wallet_session_required",
      "wallet_user_mismatch",
      "pin_invalid",
      "pin_locked",
    ],
    summary: "The window approves a confirmation (its own origin, CSRF double-submit): the chain write runs, single use",
  }),
  defineEndpoint({
    name: "walletConfirmDeny",
    method: "post",
    path: apiPath(PATHS.walletConfirmDeny),
    transport: "form",
    auth: [],
    input: { params: walletConfirmationParamsSchema, body: walletDenySchema },
    output: { 200: outcome },
    errors: ["invalid_request", "csrf_failed", "confirmation_not_found", "confirmation_closed", "wallet_session_required", "wallet_user_mismatch"],
    summary: "The window denies a confirmation: nothing moves",
  }),
  defineEndpoint({
    name: "walletConfirmResult",
    method: "get",
    path: apiPath(PATHS.walletConfirmResult),
    transport: "page",
    auth: [],
    input: { params: walletConfirmationParamsSchema, query: walletConfirmResultQuerySchema },
    output: { 200: html },
    errors: ["invalid_request", "confirmation_not_found"],
    summary: "The confirmation window's last page: posts the wallet_result to the opener at the registered origin only (or the redirect URI's fragment)",
  }),
  defineEndpoint({
    name: "walletPinSetup",
    method: "post",
    path: PATHS.walletPinSetup,
    transport: "form",
    auth: [],
    input: { body: walletPinSetupSchema },
    output: { 200: z.object({ success: z.literal(true), address: z.string(), key_share_user: z.string(), words: z.string() }) },
    errors: ["invalid_request", "csrf_failed", "wallet_session_required", "wallet_exists", "rate_limited", "service_unavailable"],
    summary: "The PIN set-up window's post (its own origin, CSRF double-submit): registers the PIN, answers the key share and the words to the window once",
  }),
  defineEndpoint({
    name: "walletActionResult",
    method: "get",
    path: apiPath(PATHS.walletActionResult),
    transport: "page",
    auth: [],
    input: { params: walletActionParamsSchema, query: walletActionResultQuerySchema },
    output: { 200: html },
    errors: ["invalid_request", "invalid_client", "redirect_uri_mismatch"],
    summary: "A page-started window's last page: posts the wallet_result (action, outcome, wallet address) to the opener at the registered origin only",
  }),
  defineEndpoint({
    name: "walletActionPage",
    method: "get",
    path: apiPath(PATHS.walletActionPage),
    transport: "page",
    auth: [],
    input: { params: walletActionParamsSchema, query: walletActionPageQuerySchema },
    output: { 200: html },
    errors: ["invalid_request", "invalid_client", "redirect_uri_mismatch"],
    summary: "A page-started wallet window for the player: pin-setup (words shown once), pin-reset (words), recover (mailbox code), approvals (list, revoke)",
  }),
];
