import { SlotgateBackendError } from "../errors.js";

/** Fastify's `reply`. */
export interface FastifyReplyLike {
  code(status: number): FastifyReplyLike;
  header(name: string, value: string): FastifyReplyLike;
  send(payload: unknown): unknown;
}

/** `node:http`'s `ServerResponse`, and Express's `res` (a subclass). */
export interface NodeResponseLike {
  headersSent?: boolean;
  statusCode: number;
  setHeader(name: string, value: string): unknown;
  end(chunk?: string): unknown;
}

/** Koa's `ctx.response` (or `ctx`): status and body are settable. */
export interface KoaResponseLike {
  status: number;
  body: unknown;
  set(field: string, value: string): unknown;
}

/** A response object from Express, Fastify, Koa or `node:http`. */
export type CallbackResponseLike = FastifyReplyLike | NodeResponseLike | KoaResponseLike;

const BODY = { success: true } as const;

/** Answers the service's callback with 200 and `{"success":true}`, whichever framework's object this is. */
export function answerCallback(res: unknown): void {
  const r = res as Record<string, unknown> | null;
  if (r === null || typeof r !== "object") {
    throw new SlotgateBackendError("invalid_argument", { detail: "handleCallback needs a response object" });
  }
  if (typeof r.code === "function" && typeof r.send === "function" && typeof r.header === "function") {
    (r as unknown as FastifyReplyLike).code(200).header("cache-control", "no-store").send(BODY);
    return;
  }
  if (typeof r.end === "function" && typeof r.setHeader === "function") {
    const node = r as unknown as NodeResponseLike;
    if (node.headersSent) return;
    node.statusCode = 200;
    node.setHeader("content-type", "application/json; charset=utf-8");
    node.setHeader("cache-control", "no-store");
    node.end(JSON.stringify(BODY));
    return;
  }
  if (typeof r.set === "function" && "body" in r && "status" in r) {
    const koa = r as unknown as KoaResponseLike;
    koa.status = 200;
    koa.set("cache-control", "no-store");
    koa.body = BODY;
    return;
  }
  throw new SlotgateBackendError("invalid_argument", {
    detail: "handleCallback needs an Express, Fastify, Koa or node:http response object",
  });
}
