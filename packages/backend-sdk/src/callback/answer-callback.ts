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

/** Writes a WHATWG `Response` into a framework's response object; settles once the body is written. */
export type ResponseWriter = (response: Response) => Promise<void>;

async function writeNode(node: NodeResponseLike, response: Response): Promise<void> {
  if (node.headersSent) return;
  node.statusCode = response.status;
  response.headers.forEach((value, name) => {
    node.setHeader(name, value);
  });
  const body = await response.text();
  node.end(body);
}

/**
 * Finds how to write a WHATWG `Response` into `res`, whichever framework's object it is: Fastify 5 and
 * Koa 3 take a `Response` as is (status, headers and body, set synchronously, so a Koa middleware that
 * does not await still answers); `node:http` and Express get status and headers at once and the body
 * when read.
 *
 * @throws {@link SlotgateBackendError} `invalid_argument` when `res` is none of them (before anything is written)
 */
export function responseWriter(res: unknown): ResponseWriter {
  const r = res as Record<string, unknown> | null;
  if (r === null || typeof r !== "object") {
    throw new SlotgateBackendError("invalid_argument", { detail: "handleCallback needs a response object" });
  }
  if (typeof r.code === "function" && typeof r.send === "function" && typeof r.header === "function") {
    return async (response) => {
      (r as unknown as FastifyReplyLike).send(response);
    };
  }
  if (typeof r.end === "function" && typeof r.setHeader === "function") {
    return (response) => writeNode(r as unknown as NodeResponseLike, response);
  }
  if (typeof r.set === "function" && "body" in r && "status" in r) {
    return async (response) => {
      (r as unknown as KoaResponseLike).body = response;
    };
  }
  throw new SlotgateBackendError("invalid_argument", {
    detail: "handleCallback needs a WHATWG Request, or an Express, Fastify, Koa or node:http response object",
  });
}
