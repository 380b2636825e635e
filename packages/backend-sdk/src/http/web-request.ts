/**
 * Whether `value` is a WHATWG `Request` (Node 20+, Next.js, Hono, Bun, Deno, Workers). Duck-typed, so a
 * `Request` from another realm or a polyfill counts too; the Node frameworks' request objects have plain
 * object headers and never match.
 */
export function isWebRequest(value: unknown): value is Request {
  if (value === null || typeof value !== "object") return false;
  if (typeof Request === "function" && value instanceof Request) return true;
  const v = value as { url?: unknown; method?: unknown; headers?: { get?: unknown } | null };
  return typeof v.url === "string" && typeof v.method === "string" && typeof v.headers?.get === "function";
}

/**
 * Reads a request's body as bytes, at most `maxBytes`: resolves `null` as soon as it is longer (the rest is
 * not read). A body already used, or none, reads as empty.
 */
export async function readBodyCapped(request: Request, maxBytes: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("content-length") ?? Number.NaN);
  if (declared > maxBytes) return null;
  if (!request.body || request.bodyUsed) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
