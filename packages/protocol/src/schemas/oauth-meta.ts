import { z } from "zod";
import type { MetaAuthorizeQuery, MetaGetTokenRequest } from "../index.js";
import { text } from "./primitives.js";

/** Query of `GET /v1/oauth-meta/authorize`. */
export const metaAuthorizeQuerySchema = z.strictObject({
  client_id: text(128),
  redirect_uri: text(2048),
  state: text(512),
}) satisfies z.ZodType<MetaAuthorizeQuery>;

/** Body of `POST /v1/oauth-meta/get_token`. */
export const metaGetTokenSchema = z.strictObject({
  client_id: text(128),
  client_secret: text(512),
  code: text(512),
  redirect_uri: text(2048),
}) satisfies z.ZodType<MetaGetTokenRequest>;
