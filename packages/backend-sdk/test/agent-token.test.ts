import { type JWK, SignJWT, exportJWK, generateKeyPair } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SlotgateBackend, SlotgateBackendError, silentLogger } from "../src/index.js";
import { type RunningServer, freePort, nodeServer } from "./support/http-server.js";

/** A delegation server on 127.0.0.1 publishing its keys at /.well-known/jwks.json. */
let server: RunningServer;
let published: JWK[] = [];
let jwksStatus = 200;
let jwksRequests = 0;
let key1: { privateKey: Parameters<SignJWT["sign"]>[0]; kid: string };
let stranger: { privateKey: Parameters<SignJWT["sign"]>[0]; kid: string };

async function makeKey(kid: string) {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(publicKey)), kid, alg: "ES256", use: "sig" };
  return { privateKey, kid, jwk };
}

beforeAll(async () => {
  const a = await makeKey("k1");
  const c = await makeKey("k1"); // same kid, different key
  key1 = a;
  stranger = c;
  published = [a.jwk];
  server = await nodeServer((req, res) => {
    if (req.url === "/.well-known/jwks.json") {
      jwksRequests++;
      res.writeHead(jwksStatus, { "content-type": "application/json" }).end(JSON.stringify({ keys: published }));
    } else res.writeHead(404).end();
  });
});
afterAll(() => server.close());

function delegation(clientId = "sg_agent_app"): SlotgateBackend {
  return new SlotgateBackend({
    authServerUrl: server.origin,
    clientId,
    clientSecret: "unused-for-verification",
    redirectUri: "http://127.0.0.1:9/cb",
    logger: silentLogger,
  });
}

function token(signer: { privateKey: Parameters<SignJWT["sign"]>[0]; kid: string }, claims: Record<string, unknown> = {}, expSeconds = 300) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: "slot:read", ...claims })
    .setProtectedHeader({ alg: "ES256", kid: signer.kid, typ: "JWT" })
    .setIssuer((claims.iss as string) ?? server.origin)
    .setAudience((claims.aud as string) ?? "sg_agent_app")
    .setSubject("agent-42")
    .setIssuedAt(now)
    .setExpirationTime(now + expSeconds)
    .sign(signer.privateKey);
}

async function failure(p: Promise<unknown>): Promise<SlotgateBackendError> {
  const e = await p.then(
    () => new Error("expected a rejection"),
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(SlotgateBackendError);
  return e as SlotgateBackendError;
}

describe("verifyAgentToken", () => {
  it("returns the claims of a token signed with a published key", async () => {
    const claims = await delegation().verifyAgentToken(await token(key1));
    expect(claims).toMatchObject({ iss: server.origin, sub: "agent-42", aud: "sg_agent_app", scope: "slot:read" });
  });

  it("INVALID_AGENT_TOKEN for a token signed by an unpublished key with a known kid", async () => {
    const err = await failure(delegation().verifyAgentToken(await token(stranger)));
    expect(err.code).toBe("invalid_agent_token");
    expect(err.status).toBe(401);
  });

  it("INVALID_AGENT_TOKEN for another issuer or another audience", async () => {
    expect((await failure(delegation().verifyAgentToken(await token(key1, { iss: "https://evil.example" })))).code).toBe("invalid_agent_token");
    expect((await failure(delegation().verifyAgentToken(await token(key1, { aud: "someone-else" })))).code).toBe("invalid_agent_token");
    const ok = await delegation().verifyAgentToken(await token(key1, { aud: "someone-else" }), { audience: "someone-else" });
    expect(ok.aud).toBe("someone-else");
  });

  it("EXPIRED_TOKEN beyond the 30 s tolerance; accepted within it", async () => {
    expect((await failure(delegation().verifyAgentToken(await token(key1, {}, -120)))).code).toBe("expired_token");
    await expect(delegation().verifyAgentToken(await token(key1, {}, -5))).resolves.toMatchObject({ sub: "agent-42" });
  });

  it("INVALID_AGENT_TOKEN for an HS256 token (symmetric algorithms are refused) and for garbage", async () => {
    const hs = await new SignJWT({ sub: "x" })
      .setProtectedHeader({ alg: "HS256", kid: "k1" })
      .setIssuer(server.origin)
      .setAudience("sg_agent_app")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("x".repeat(32)));
    expect((await failure(delegation().verifyAgentToken(hs))).code).toBe("invalid_agent_token");
    expect((await failure(delegation().verifyAgentToken("a.b.c"))).code).toBe("invalid_agent_token");
    expect((await failure(delegation().verifyAgentToken(""))).code).toBe("missing_token");
  });

  it("KEYS_UNAVAILABLE when the key set answers an error or the server is down", async () => {
    jwksStatus = 500;
    expect((await failure(delegation().verifyAgentToken(await token(key1)))).code).toBe("keys_unavailable");
    jwksStatus = 200;
    const port = await freePort();
    const down = new SlotgateBackend({
      authServerUrl: `http://127.0.0.1:${port}`,
      clientId: "sg_agent_app",
      clientSecret: "s",
      redirectUri: "http://127.0.0.1:9/cb",
    });
    const err = await failure(down.verifyAgentToken(await token(key1)));
    expect(err.code).toBe("keys_unavailable");
    expect(err.status).toBe(503);
  });

  it("caches the key set between verifications", async () => {
    const d = delegation();
    const before = jwksRequests;
    const t = await token(key1);
    await d.verifyAgentToken(t);
    await d.verifyAgentToken(t);
    await d.verifyAgentToken(t);
    expect(jwksRequests - before).toBe(1);
  });
});
