/**
 * Runtime validation schemas (zod) for every request of the Slotgate HTTP
 * service, and response schemas for conformance checks.
 *
 * This entry point is separate from `@slotgate/protocol` so that browser code
 * importing the wire types never bundles zod.
 *
 * @example
 * ```ts
 * import { tokenRequestSchema, validationDetails } from "@slotgate/protocol/schemas";
 * const parsed = tokenRequestSchema.safeParse(body);
 * if (!parsed.success) console.log(validationDetails(parsed.error));
 * ```
 *
 * @packageDocumentation
 */
export * from "./schemas/answers.js";
export * from "./schemas/chain.js";
export * from "./schemas/content-token.js";
export * from "./schemas/client-brand.js";
export * from "./schemas/dev-user.js";
export * from "./schemas/development.js";
export { validationDetails, summarizeDetails } from "./schemas/issues.js";
export * from "./schemas/oauth.js";
export * from "./schemas/oauth-meta.js";
export * as primitives from "./schemas/primitives.js";
export * from "./schemas/responses.js";
export * from "./schemas/slots.js";
export * from "./schemas/wallet-window.js";
