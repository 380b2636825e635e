import { HttpError, invalidToken } from "./http-error.js";

/** The bearer token of a request, or throws 401 invalid_token. */
export function bearerToken(request: Request): string {
  const header = request.headers.get("authorization") ?? "";
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(header.trim());
  if (!match?.[1]) throw invalidToken();
  return match[1];
}

/** HTTP Basic credentials, null when the header is absent; 401 invalid_client when malformed. */
export function basicCredentials(request: Request): { id: string; secret: string } | null {
  const header = request.headers.get("authorization");
  if (header === null || !/^Basic /i.test(header)) return null;
  let decoded: string;
  try {
    decoded = atob(header.slice(6).trim());
  } catch {
    throw new HttpError("invalid_client");
  }
  const colon = decoded.indexOf(":");
  if (colon < 0) throw new HttpError("invalid_client");
  try {
    // RFC 6749 2.3.1: both parts are form-urlencoded before Base64.
    return {
      id: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, " ")),
      secret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, " ")),
    };
  } catch {
    throw new HttpError("invalid_client");
  }
}

/** The value of one cookie of the request's Cookie header. */
export function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
