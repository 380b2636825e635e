// Child process: node-oidc-provider's token endpoint, client_credentials grant issuing ES256 JWT
// access tokens (resource indicators), default in-memory adapter.
import { generateKeyPair, exportJWK } from "jose";
import Provider from "oidc-provider";
import { settle } from "./settle.mjs";

const { privateKey } = await generateKeyPair("ES256", { extractable: true });
const jwk = { ...(await exportJWK(privateKey)), kid: "bench", alg: "ES256", use: "sig" };
const RESOURCE = "https://api.bench.example";
const provider = new Provider("http://127.0.0.1", {
  clients: [
    {
      client_id: "bench",
      client_secret: "bench-secret-0123456789abcdefghijklmnopq",
      grant_types: ["client_credentials"],
      redirect_uris: [],
      response_types: [],
      id_token_signed_response_alg: "ES256",
    },
  ],
  jwks: { keys: [jwk] },
  features: {
    devInteractions: { enabled: false },
    clientCredentials: { enabled: true },
    resourceIndicators: {
      enabled: true,
      defaultResource: () => RESOURCE,
      useGrantedResource: () => true,
      getResourceServerInfo: () => ({ scope: "api", audience: RESOURCE, accessTokenFormat: "jwt", accessTokenTTL: 3600, jwt: { sign: { alg: "ES256" } } }),
    },
  },
});
provider.proxy = false;
const server = provider.listen(0, "127.0.0.1", () => {
  settle();
  process.send({ type: "ready", url: `http://127.0.0.1:${server.address().port}` });
});
process.on("message", (msg) => {
  if (msg.type === "stop") server.close(() => process.exit(0));
});
