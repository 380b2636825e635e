import type { ChainService, WriteOptions } from "@slotgate/chain-service";
import { PATHS, isPendingWrite } from "@slotgate/protocol";
import { primitives } from "@slotgate/protocol/schemas";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { Services } from "../app/services.js";
import { basicClient, requireSameClient } from "../clients/client-basic.js";
import { jsonBody } from "../http/body.js";
import { SlotgateServerError } from "../http/errors.js";
import { parseInput } from "../http/validate.js";
import { type BearerClaims, bearerFrom } from "../keys/tokens.js";
import type { ClientRow } from "../storage/clients.js";
import { runAsVerifiedUser } from "./caller-assertions.js";

/** What a chain route's handler receives. */
export interface ChainCall<Body> {
  chain: ChainService;
  /** The parsed input. */
  body: Body;
  /** The authenticated client (`caller: "client"`), else null. */
  client: ClientRow | null;
  /** The verified bearer token (`caller: "user"`), else null. */
  claims: BearerClaims | null;
  /** The request's `Idempotency-Key` (validated), for the chain service's write methods. */
  write: WriteOptions;
  req: Request;
  res: Response;
}

/** How a chain route is called. */
export interface ChainRouteSpec<S extends z.ZodType> {
  /**
   * Who calls: `client` (a provider backend, HTTP Basic client credentials), `user` (the end user's
   * bearer token: user JWT or access token), `client_or_user` (a bearer token is a user's, anything else a client's)
   * or `public` (no authentication, e.g. `balance_adex`).
   */
  caller: "client" | "user" | "client_or_user" | "public";
  /** The input's schema (the protocol's). */
  schema: S;
  /** The input field naming the acting client (`client`) or user (`user`): it must be the authenticated one (when given). */
  actor?: (body: z.output<S>) => string | number | undefined;
  /** Where the input comes from. @default the JSON body */
  input?: (req: Request) => unknown;
  /**
   * Answer a chain write that did not land within the wait with 202 and a `Location` to follow it.
   * Off for the lookup itself, whose answer is a state (200 with `status: "pending"`). @default true
   */
  acceptedWhenPending?: boolean;
  /**
   * Middleware run after the caller is authenticated and the input is checked, just before `run`
   * (per-account rate limits, the PIN derivation bound). `res.locals.account` holds the authenticated
   * caller: the bearer token's user (`sub`) or the client's `client_id`. @default none
   */
  guards?: RequestHandler[];
}

/** Runs express middleware in order; rejects with the error one of them passes on. */
async function runGuards(guards: RequestHandler[], req: Request, res: Response): Promise<void> {
  for (const guard of guards) {
    await new Promise<void>((resolve, reject) => {
      void guard(req, res, (error?: unknown) => (error ? reject(error) : resolve()));
    });
  }
}

/** The running chain service, or 503 service_unavailable when the server runs with `CHAIN=off`. */
export function chainOf(services: Services): ChainService {
  if (!services.chain) {
    throw new SlotgateServerError("service_unavailable", { message: "The chain service is off on this server (CHAIN=off); wallet, PIN and content-token endpoints are unavailable." });
  }
  return services.chain.service;
}

/** The `Idempotency-Key` header, validated (400 `invalid_request` naming the header when malformed). */
export function writeOptionsOf(req: Request): WriteOptions {
  const key = req.headers["idempotency-key"];
  if (key === undefined) return {};
  const parsed = primitives.idempotencyKey.safeParse(key);
  if (!parsed.success) {
    throw new SlotgateServerError("invalid_request", {
      message: `Idempotency-Key: ${parsed.error.issues[0]?.message ?? "invalid"}`,
      details: [{ path: "Idempotency-Key", message: parsed.error.issues[0]?.message ?? "invalid" }],
    });
  }
  return { idempotencyKey: parsed.data };
}

/**
 * The one shape of every chain endpoint: 503 when the chain is off, then the caller's authentication
 * (401), then the input parsed with its schema and the `Idempotency-Key` header (400), then the actor
 * check (403 `token_user_mismatch` when the body names another client or user), then the `guards`
 * (429 `rate_limited`), then `run`; its answer
 * is sent as JSON with `Cache-Control: no-store`. A chain write that did not land within the wait is
 * answered 202 with its `write_id` and a `Location` to follow it. Errors (the chain service's included)
 * go to the one error handler.
 *
 * @example
 * ```ts
 * router.post(PATHS.userBuyContentToken, ...chainRoute(services, { caller: "client", schema: userBuyContentTokenSchema, actor: (b) => b.client_id },
 *   ({ chain, body, write }) => chain.buyContentToken(body, write)));
 * ```
 */
export function chainRoute<S extends z.ZodType>(
  services: Services,
  spec: ChainRouteSpec<S>,
  run: (call: ChainCall<z.output<S>>) => Promise<unknown>,
): RequestHandler[] {
  const handler = async (req: Request, res: Response, next: NextFunction) => {
    try {
      const chain = chainOf(services);
      // Either caller: a bearer token is a user's; anything else (Basic, or nothing) is a client's.
      const bearer = /^bearer /i.test(req.headers.authorization ?? "");
      const asClient = spec.caller === "client" || (spec.caller === "client_or_user" && !bearer);
      const asUser = spec.caller === "user" || (spec.caller === "client_or_user" && bearer);
      const client = asClient ? await basicClient(services, req) : null;
      const claims = asUser ? await services.tokens.verifyBearer(bearerFrom(req.headers.authorization)) : null;
      const body = parseInput(spec.schema, spec.input ? spec.input(req) : req.body);
      const write = writeOptionsOf(req);
      const actor = spec.actor?.(body);
      if (actor !== undefined) {
        if (client) requireSameClient(client, String(actor));
        if (claims) requireSameUser(claims, actor);
      }
      if (spec.guards?.length) {
        res.locals["account"] = claims ? claims.sub : client?.client_id;
        await runGuards(spec.guards, req, res);
      }
      const work = () => run({ chain, body, client, claims, write, req, res });
      // A user's route: the chain calls it makes are made for the user its bearer token names.
      const answer = await (claims ? runAsVerifiedUser(Number(claims.sub), work) : work());
      res.setHeader("Cache-Control", "no-store");
      if (spec.acceptedWhenPending !== false && isPendingWrite(answer)) {
        res.status(202).setHeader("Location", PATHS.chainWrite.replace(":write_id", answer.write_id)).setHeader("Retry-After", "2");
      }
      res.json(answer);
    } catch (error) {
      next(error);
    }
  };
  return spec.input ? [handler] : [jsonBody, handler];
}

/**
 * The bearer token's `sub` must be `userId` (403 token_user_mismatch otherwise): PIN, transfer and
 * slot-exchange calls act for the token's user only.
 */
export function requireSameUser(claims: BearerClaims, userId: string | number): void {
  if (claims.sub !== String(userId)) {
    throw new SlotgateServerError("token_user_mismatch", { message: "The bearer token does not belong to this user." });
  }
}
