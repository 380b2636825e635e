// Child process: node-oidc-provider's token endpoint, authorization_code grant with PKCE S256 and a
// confidential client (client_secret_post), ES256 JWT access token (resource indicators), on a persistent
// store: Redis (BENCH_REDIS_URL, default redis://127.0.0.1:6379) through oidc-redis-adapter.mjs. The
// like-for-like anchor of Slotgate's code exchange (issue 34): both read a stored code, check the client,
// the redirect URI and the PKCE verifier, consume the code once and sign one JWT. An IPC hook mints codes
// straight into the store (the interaction pages are not what this benchmark measures).
import { randomBytes } from "node:crypto";
import { exportJWK, generateKeyPair } from "jose";
import Provider from "oidc-provider";
import { redisAdapter } from "./oidc-redis-adapter.mjs";
import { settle } from "./settle.mjs";

const { privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: "bench", alg: "ES256", use: "sig" };
const RESOURCE = "https://api.bench.example";
const REDIRECT_URI = "https://bench.example/cb";
const CLIENT = { client_id: "bench-code", client_secret: "bench-secret-0123456789abcdefghijklmnopq" };
const prefix = `bench-${randomBytes(4).toString("hex")}`;
const { Adapter, client: redis } = redisAdapter(process.env.BENCH_REDIS_URL || "redis://127.0.0.1:6379");
const provider = new Provider("http://127.0.0.1", {
  adapter: class extends Adapter {
    key(id) {
      return `${prefix}:${super.key(id)}`;
    }
  },
  clients: [
    {
      ...CLIENT,
      grant_types: ["authorization_code"],
      redirect_uris: [REDIRECT_URI],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_post",
      id_token_signed_response_alg: "ES256",
    },
  ],
  jwks: { keys: [jwk] },
  ttl: { Grant: 86_400, AuthorizationCode: 600, AccessToken: 3600 },
  findAccount: (_ctx, id) => ({ accountId: id, claims: () => ({ sub: id }) }),
  pkce: { required: () => true },
  features: {
    devInteractions: { enabled: false },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: "api", audience: RESOURCE, accessTokenFormat: "jwt", accessTokenTTL: 3600, jwt: { sign: { alg: "ES256" } } }),
    },
  },
});
provider.proxy = false;

// One grant (the user's consent to the client) that every minted code belongs to, and one PKCE pair.
const grant = new provider.Grant({ accountId: "bench-user", clientId: CLIENT.client_id });
grant.addResourceScope(RESOURCE, "api");
const grantId = await grant.save();
const codeVerifier = randomBytes(32).toString("base64url");
const { createHash } = await import("node:crypto");
const codeChallenge = createHash("sha256").update(codeVerifier).digest("base64url");
const registered = await provider.Client.find(CLIENT.client_id);

async function mint(n) {
  const codes = [];
  for (let i = 0; i < n; i += 500) {
    const batch = Array.from({ length: Math.min(500, n - i) }, () =>
      new provider.AuthorizationCode({
        accountId: "bench-user",
        client: registered,
        grantId,
        redirectUri: REDIRECT_URI,
        scope: "api",
        resource: RESOURCE,
        codeChallenge,
        codeChallengeMethod: "S256",
      }).save(),
    );
    codes.push(...(await Promise.all(batch)));
  }
  return codes;
}

const server = provider.listen(0, "127.0.0.1", () => {
  settle();
  process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}`, ...CLIENT, redirect_uri: REDIRECT_URI, code_verifier: codeVerifier });
});
process.on("message", async (msg) => {
  if (msg.type === "mint") process.send({ type: "minted", codes: await mint(msg.n) });
  if (msg.type === "stop") {
    const keys = await redis.keys(`${prefix}:*`);
    for (let i = 0; i < keys.length; i += 10_000) await redis.del(...keys.slice(i, i + 10_000));
    server.close(() => process.exit(0));
  }
});
