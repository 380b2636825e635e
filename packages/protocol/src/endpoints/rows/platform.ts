import { PATHS } from "../../paths.js";
import {
  chainInfoResponseSchema,
  devEnableReleaseResponseSchema,
  devFundSlotResponseSchema,
  devRegisterSlotResponseSchema,
  healthResponseSchema,
  jsonDocumentSchema,
  jwksResponseSchema,
} from "../../schemas/answers.js";
import { chainWriteParamsSchema } from "../../schemas/chain.js";
import { devEnableReleaseSchema, devFundSlotSchema, devRegisterSlotSchema } from "../../schemas/development.js";
import { chainWriteResponseSchema, pendingWriteResponseSchema } from "../../schemas/responses.js";
import { type ActorRule, defineEndpoint } from "../define.js";
import { EXAMPLE } from "../examples.js";
import { apiPath } from "../path.js";
import { WRITE_ERRORS } from "./write-errors.js";

const operator: readonly ActorRule[] = [{ in: "body", field: "client_id", is: "client" }];

/** The chain facts, the chain-write lookup, discovery documents and health. */
export const platformEndpoints = [
  defineEndpoint({
    name: "chainInfo",
    method: "get",
    path: PATHS.chainInfo,
    auth: [],
    cors: true,
    input: {},
    output: { 200: chainInfoResponseSchema },
    errors: ["service_unavailable"],
    summary: "The chain id and deployed contracts (and the development chain's JSON-RPC URL), public",
  }),
  defineEndpoint({
    name: "chainWrite",
    method: "get",
    path: apiPath(PATHS.chainWrite),
    auth: ["basic", "user_bearer"],
    input: { params: chainWriteParamsSchema },
    output: { 200: chainWriteResponseSchema },
    errors: ["invalid_request", "invalid_client", "invalid_token", "write_not_found", "service_unavailable"],
    summary: "A chain write's state and, once settled, the answer its request would have given (the client or user that made it only)",
  }),
  defineEndpoint({
    name: "jwks",
    method: "get",
    path: PATHS.jwks,
    auth: [],
    cors: true,
    input: {},
    output: { 200: jwksResponseSchema },
    errors: [],
    summary: "The public keys that verify the service's tokens (RFC 7517)",
  }),
  defineEndpoint({
    name: "metadata",
    method: "get",
    path: PATHS.metadata,
    auth: [],
    cors: true,
    input: {},
    output: { 200: jsonDocumentSchema },
    errors: [],
    summary: "Authorization server metadata (RFC 8414)",
  }),
  defineEndpoint({
    name: "openapi",
    method: "get",
    path: PATHS.openapi,
    auth: [],
    cors: true,
    input: {},
    output: { 200: jsonDocumentSchema },
    errors: [],
    summary: "This document (OpenAPI 3.1), generated from the endpoint table",
  }),
  defineEndpoint({
    name: "health",
    method: "get",
    path: PATHS.health,
    auth: [],
    input: {},
    output: { 200: healthResponseSchema },
    errors: ["service_unavailable"],
    summary: "Health check: the database answers and the chain is reachable",
  }),
  defineEndpoint({
    name: "devFundSlot",
    method: "post",
    path: PATHS.devFundSlot,
    auth: ["basic"],
    actors: operator,
    development: true,
    input: { body: devFundSlotSchema },
    output: { 200: devFundSlotResponseSchema },
    errors: ["invalid_request", "invalid_client", "token_user_mismatch", "slot_not_found", "provider_not_registered", "service_unavailable"],
    summary: "Development chain only: XOTN (wei) for the user's slot wallet and its purchase consent for cuid raised by the same amount",
    example: { client_id: EXAMPLE.clientId, user_id: EXAMPLE.userId, xotn: "1000000000000000000", cuid: EXAMPLE.cuid },
  }),
  defineEndpoint({
    name: "devEnableRelease",
    method: "post",
    path: PATHS.devEnableRelease,
    auth: ["basic"],
    actors: operator,
    development: true,
    writes: true,
    input: { body: devEnableReleaseSchema },
    output: { 200: devEnableReleaseResponseSchema, 202: pendingWriteResponseSchema },
    errors: ["invalid_request", "invalid_client", "token_user_mismatch", "service_unavailable", ...WRITE_ERRORS],
    summary: "Development chain only: sets the cuid's release flag (default true)",
    example: { client_id: EXAMPLE.clientId, cuid: EXAMPLE.cuid, enabled: true },
  }),
  defineEndpoint({
    name: "devRegisterSlot",
    method: "post",
    path: PATHS.devRegisterSlot,
    auth: ["basic"],
    actors: operator,
    development: true,
    writes: true,
    input: { body: devRegisterSlotSchema },
    output: { 200: devRegisterSlotResponseSchema, 202: pendingWriteResponseSchema },
    errors: ["invalid_request", "invalid_client", "token_user_mismatch", "slot_not_found", "service_unavailable", ...WRITE_ERRORS],
    summary: "Development chain only: records the user's wallet as owner of slot meta_idx (buy_slot)",
    example: { client_id: EXAMPLE.clientId, cuid: EXAMPLE.cuid, meta_idx: 0, user_id: EXAMPLE.userId },
  }),
] as const;
