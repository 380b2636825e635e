import { generateKeyPairSync, randomBytes, randomUUID, sign } from "node:crypto";
import { type IncomingMessage, type ServerResponse, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { popupResultPage } from "./popup-result-page.js";
import type { E2eTarget } from "./target.js";

/**
 * A stand-in for the service's browser-facing popup contract (http-contract.md: /oauth/authorize GET and
 * POST in popup mode, /v1/oauth/revoke, /v1/oauth/validate), on real HTTP at 127.0.0.1 with real ES256
 * JWTs. Test-only: it lets the Chromium suite run where the reference server is not built; the same
 * scenarios run against the reference server in login.server.test.ts.
 */
export async function startContractService(): Promise<E2eTarget> {
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const clients = new Map<string, string[]>();
  const users = new Map<string, { id: string; password: string }>();
  const revoked = new Set<string>();
  const liveJtis = new Set<string>();

  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");
  const issue = (sub: string, clientId: string): string => {
    const now = Math.floor(Date.now() / 1000);
    const jti = randomUUID();
    liveJtis.add(jti);
    const input = `${b64({ alg: "ES256", typ: "JWT", kid: "stand-in" })}.${b64({ iss: base, sub, client_id: clientId, token_use: "user_jwt", jti, iat: now, exp: now + 7 * 86400 })}`;
    return `${input}.${sign("sha256", Buffer.from(input), { key: privateKey, dsaEncoding: "ieee-p1363" }).toString("base64url")}`;
  };
  const jtiOf = (req: IncomingMessage): string | undefined => {
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1];
    try {
      const jti = JSON.parse(Buffer.from(token?.split(".")[1] ?? "", "base64url").toString()).jti as string;
      return liveJtis.has(jti) && !revoked.has(jti) ? jti : undefined;
    } catch {
      return undefined;
    }
  };
  const json = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*" });
    res.end(JSON.stringify(body));
  };
  const html = (res: ServerResponse, status: number, body: string) => {
    res.writeHead(status, { "content-type": "text/html; charset=utf-8" });
    res.end(body);
  };
  const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

  /** Answers the contract's error and returns false when the authorize params are not acceptable. */
  const authorizeCheck = (params: URLSearchParams, res: ServerResponse): boolean => {
    const uris = clients.get(params.get("client_id") ?? "");
    let error: [number, string] | undefined;
    if (["client_id", "redirect_uri", "response_type", "state"].some((name) => !params.get(name))) {
      error = [400, "ERR_MISSING_PARAMS"];
    } else if (!uris) error = [401, "invalid_client"];
    else if (!uris.includes(params.get("redirect_uri") ?? "")) error = [401, "redirect_uri_mismatch"];
    if (error) json(res, error[0], { success: false, error: error[1], message: error[1] });
    return !error;
  };

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", base);
    if (req.method === "OPTIONS") {
      res.writeHead(204, {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, POST",
        "access-control-allow-headers": "authorization, content-type",
      });
      return res.end();
    }
    if (url.pathname === "/oauth/authorize" && req.method === "GET") {
      if (!authorizeCheck(url.searchParams, res)) return;
      const hidden = [...url.searchParams].map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join("");
      return html(
        res,
        200,
        `<!doctype html><title>Log in</title><form method="post" action="/oauth/authorize">${hidden}
<input name="email" type="email"><input name="password" type="password">
<button name="decision" value="approve">Approve</button><button name="decision" value="deny">Deny</button></form>`,
      );
    }
    if (url.pathname === "/oauth/authorize" && req.method === "POST") {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        const form = new URLSearchParams(body);
        if (!authorizeCheck(form, res)) return;
        const redirectUri = form.get("redirect_uri") ?? "";
        const state = form.get("state") ?? "";
        let result: { type: "success" | "fail"; data: string };
        if (form.get("decision") !== "approve") result = { type: "fail", data: "access_denied" };
        else {
          const user = users.get(form.get("email") ?? "");
          if (!user || user.password !== form.get("password")) return html(res, 401, "Wrong email or password.");
          result = { type: "success", data: issue(user.id, form.get("client_id") ?? "") };
        }
        if (form.get("display") === "popup") return html(res, 200, popupResultPage({ redirectUri, state, ...result }));
        res.writeHead(302, { location: `${redirectUri}?code=${randomBytes(8).toString("hex")}&state=${state}` });
        res.end();
      });
      return;
    }
    if (url.pathname === "/v1/oauth/revoke" && req.method === "POST") {
      const jti = jtiOf(req);
      if (!jti) return json(res, 401, { success: false, error: "invalid_token", message: "invalid" });
      revoked.add(jti);
      return json(res, 200, { success: true, revoked: true });
    }
    if (url.pathname === "/v1/oauth/validate" && req.method === "GET") {
      return jtiOf(req) ? json(res, 200, { success: true, valid: true }) : json(res, 401, { success: false, error: "invalid_token", message: "invalid" });
    }
    json(res, 404, { success: false, error: "not_found", message: "No such endpoint." });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    name: "contract stand-in",
    baseUrl: base,
    async registerClient(redirectUris) {
      const clientId = `sg_${randomBytes(12).toString("hex")}`;
      clients.set(clientId, redirectUris);
      return clientId;
    },
    async createEndUser() {
      const email = `player-${randomBytes(6).toString("hex")}@example.test`;
      const password = randomBytes(12).toString("base64url");
      users.set(email, { id: String(users.size + 1), password });
      return { email, password };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
