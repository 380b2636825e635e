import { z } from "zod";
import type { ClientRegistrationRequest, DevUserCredentials } from "../types/dev-user.js";
import { email, httpUrl, text } from "./primitives.js";

/** Body of `POST /v1/dev-user/login_devuser` and `/signup`. */
export const devUserCredentialsSchema = z.strictObject({
  email,
  password: z.string().min(8, "must be at least 8 characters").max(256, "must be at most 256 characters"),
}) satisfies z.ZodType<DevUserCredentials>;

/** Body of `POST /v1/dev-user/clients`. */
export const clientRegistrationSchema = z.strictObject({
  name: text(100),
  redirect_uris: z.array(httpUrl).min(1, "needs at least one redirect URI").max(20),
  download_url: httpUrl,
  web_url: httpUrl,
  platform: z.enum(["web", "desktop", "game"]),
  blockchain: z.boolean().default(false),
}) satisfies z.ZodType<ClientRegistrationRequest, unknown>;
