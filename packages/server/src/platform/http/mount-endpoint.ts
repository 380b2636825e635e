import type { WriteOptions } from "@slotgate/chain-service";
import { isPendingWrite } from "@slotgate/protocol";
import { type AnyEndpoint, ENDPOINTS, type EndpointOutput, type EndpointParsedInput, fillPath, routePath } from "@slotgate/protocol/endpoints";
import { primitives } from "@slotgate/protocol/schemas";
import type { NextFunction, Request, RequestHandler, Response, Router } from "express";
import { z } from "zod";
import type { Services } from "../app/services.js";
import { runAsVerifiedUser } from "../../chain-api/chain/caller-assertions.js";
import { chainOf } from "../../chain-api/chain/chain-of.js";
import { jsonBody } from "./input.js";
import { authenticate, authenticateFromBody, type Caller, callerOf, checkActors } from "./endpoint-caller.js";
import { SlotgateServerError } from "./errors.js";
import { parseInput } from "./input.js";

/** How the server mounts one row, beyond what the row says. */
export interface MountOptions {
  /** Middleware run first, before the body is read (per-IP rate limits). @default none */
  before?: RequestHandler[];
  /**
   * Middleware run once the caller is authenticated and the input parsed, just before the handler
   * (per-account rate limits, the PIN derivation bound). `res.locals.account` holds the caller: the
   * bearer token's user (`sub`) or the client's `client_id`. @default none
   */
  guards?: RequestHandler[];
  /** The handler calls the chain service: 503 service_unavailable before anything else when the server runs with `CHAIN=off`. @default false */
  chain?: boolean;
  /** Headers of a success answer. @default `Cache-Control: no-store` */
  headers?: Record<string, string>;
}

/** What a mounted endpoint's handler does: the parsed input and the caller in, the answer out. */
export type EndpointHandler<E extends AnyEndpoint> = (input: EndpointParsedInput<E>, caller: Caller, req: Request) => Promise<EndpointOutput<E>>;

/** The `Idempotency-Key` header, validated (400 `invalid_request` naming the header when malformed). */
function writeOptionsOf(req: Request): WriteOptions {
  const key = req.headers["idempotency-key"];
  if (key === undefined) return {};
  const parsed = primitives.idempotencyKey.safeParse(key);
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? "invalid";
    throw new SlotgateServerError("invalid_request", { message: `Idempotency-Key: ${message}`, details: [{ path: "Idempotency-Key", message }] });
  }
  return { idempotencyKey: parsed.data };
}

/** The query parameters; one the schema names given twice is 400 (it must be given once, as a string). */
function queryOf(req: Request, schema: z.ZodType): Record<string, unknown> {
  const query = { ...(req.query as Record<string, unknown>) };
  const named = schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
  for (const name of named) {
    if (query[name] !== undefined && typeof query[name] !== "string") {
      throw new SlotgateServerError("invalid_request", {
        message: `Invalid request: ${name} must be given once, as a string`,
        details: [{ path: name, message: "must be given once, as a string" }],
      });
    }
  }
  return query;
}

/** The request's path parameters, query and body, each parsed once with the row's schema (400 invalid_request). */
function parseParts(row: AnyEndpoint, req: Request): Record<string, unknown> {
  const params = row.input.params ? parseInput(row.input.params, { ...req.params }) : {};
  const query = row.input.query ? parseInput(row.input.query, queryOf(req, row.input.query)) : {};
  const body = row.input.body ? parseInput(row.input.body, req.body) : {};
  return { ...params, ...query, ...body };
}

/**
 * Runs express middleware in order; rejects with the error one of them passes on. The guards of a route
 * mounted by hand (the wallet window's posts) run through it too, once they set `res.locals.account`.
 *
 * @example
 * ```ts
 * res.locals["account"] = userId;
 * await runGuards([perAccount, inFlight], req, res);
 * ```
 */
export async function runGuards(guards: RequestHandler[], req: Request, res: Response): Promise<void> {
  for (const guard of guards) {
    await new Promise<void>((resolve, reject) => {
      void guard(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  }
}

/** The CORS preflight of a row open to any origin. */
function preflight(row: AnyEndpoint): RequestHandler {
  const headers: Record<string, string> = {
    "Access-Control-Allow-Origin": "*",
    "Access-Control-Allow-Methods": `${row.method.toUpperCase()}, OPTIONS`,
    "Access-Control-Max-Age": "600",
  };
  if (row.auth.length > 0 || row.input.body) headers["Access-Control-Allow-Headers"] = "Authorization, Content-Type";
  return (_req: Request, res: Response) => {
    res.set(headers);
    res.status(204).end();
  };
}

/**
 * Mounts one JSON endpoint of the table on `router`, the one preamble every JSON route shares: 503
 * when it needs the chain and the chain is off; the caller authenticated as the row's `auth` says
 * (401); path parameters, query and body parsed once with the row's schemas (400 invalid_request with
 * field details); the `Idempotency-Key` of a write validated; the row's actor rules checked (403
 * token_user_mismatch); the `guards` (429); then `run`. Its answer is sent as JSON with
 * `Cache-Control: no-store` (or `options.headers`), 201 when the row answers 201, and 202 with a
 * `Location` to follow when a write did not land within the wait. Rows open to any origin get
 * `Access-Control-Allow-Origin: *` and a preflight. Errors go to the one error handler.
 *
 * @example
 * ```ts
 * mountEndpoint(router, services, ENDPOINTS.activateSlot, { chain: true, guards: [perAccount] }, async (input, { chain, claims }) => ({
 *   success: true,
 *   active: await chain.activateSlot(Number(claims!.sub), input.cu_id, input.meta_idx),
 * }));
 * ```
 */
export function mountEndpoint<E extends AnyEndpoint>(router: Router, services: Services, row: E, options: MountOptions, run: EndpointHandler<E>): void {
  if ((row.transport ?? "json") !== "json") throw new Error(`${row.name} is a ${row.transport} endpoint: mount it by hand`);
  const statuses = Object.keys(row.output);
  const created = statuses.includes("201");
  const mayBePending = statuses.includes("202");
  const headers = { "Cache-Control": "no-store", ...options.headers };

  const handler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      if (options.chain) chainOf(services);
      const who = await authenticate(services, row, req);
      const input = parseParts(row, req);
      if (row.auth.includes("client_post")) who.client = await authenticateFromBody(services, input);
      const write = row.writes ? writeOptionsOf(req) : {};
      checkActors(row, input, who, { deferred: false });
      if (options.guards?.length) {
        res.locals["account"] = who.claims ? who.claims.sub : who.client?.client_id;
        await runGuards(options.guards, req, res);
      }
      const work = () => run(input as EndpointParsedInput<E>, callerOf(services, who, write), req);
      // The chain calls a user's request makes are made for the user its bearer token names.
      const answer = await (who.claims ? runAsVerifiedUser(Number(who.claims.sub), work) : work());
      res.set(headers);
      if (mayBePending && isPendingWrite(answer)) {
        res.status(202).set({ Location: fillPath(ENDPOINTS.chainWrite, answer), "Retry-After": "2" });
      } else if (created) {
        res.status(201);
      }
      res.json(answer);
    } catch (error) {
      next(error);
    }
  };
  const path = routePath(row.path);
  router[row.method](path, ...corsOf(row), ...(options.before ?? []), ...(row.input.body ? [jsonBody] : []), handler);
  if (row.cors) router.options(path, preflight(row));
}

/** Open rows answer every origin, their refusals (rate limits, bad input) included. */
const anyOrigin: RequestHandler = (_req, res, next) => {
  res.setHeader("Access-Control-Allow-Origin", "*");
  next();
};

/**
 * The CORS handler a row asks for (`cors: true`: `Access-Control-Allow-Origin: *` on every answer), for the form
 * and page rows mounted by hand as much as for {@link mountEndpoint}'s JSON rows: put it first in the route.
 *
 * @example
 * ```ts
 * router.post(PATHS.token, ...corsOf(ENDPOINTS.token), rateLimit, formOrJsonBody, handler);
 * ```
 */
export function corsOf(row: AnyEndpoint): RequestHandler[] {
  return row.cors ? [anyOrigin] : [];
}
