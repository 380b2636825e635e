import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isLoopbackIpRedirectUri, loopbackJwtRedirect, redirectUriAllowed } from "../src/index.js";
import { clientRegistrationSchema } from "../src/schemas.js";

const game = { redirect_uris: ["http://127.0.0.1/callback", "http://[::1]/cb?app=1"], token_endpoint_auth_method: "none" as const };

describe("loopback IP redirect URIs (RFC 8252 section 7.3)", () => {
  it("are http on 127.0.0.1 or [::1], with an optional port, any path and query, no fragment or user info", () => {
    for (const uri of ["http://127.0.0.1/callback", "http://127.0.0.1:1/callback", "http://[::1]:65535/x/y?z=1", "http://127.0.0.1"]) {
      expect(isLoopbackIpRedirectUri(uri), uri).toBe(true);
    }
    for (const uri of [
      "http://localhost/callback",
      "https://127.0.0.1/callback",
      "http://127.0.0.1:0/callback",
      "http://127.0.0.1:65536/callback",
      "http://127.0.0.1/callback#f",
      "http://user@127.0.0.1/callback",
      "http://127.0.0.1.evil.example/callback",
      "http://127.0.0.2/callback",
      "http://[::1]x/callback",
    ]) {
      expect(isLoopbackIpRedirectUri(uri), uri).toBe(false);
    }
  });

  it("a public client's loopback URI matches the same URI with any port, and nothing else", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), (port) => {
        expect(redirectUriAllowed(game, `http://127.0.0.1:${port}/callback`)).toBe(true);
        expect(redirectUriAllowed(game, `http://[::1]:${port}/cb?app=1`)).toBe(true);
        expect(redirectUriAllowed(game, `http://127.0.0.1:${port}/callback/`)).toBe(false);
        expect(redirectUriAllowed(game, `http://[::1]:${port}/callback`)).toBe(false);
        expect(redirectUriAllowed(game, `http://localhost:${port}/callback`)).toBe(false);
        expect(redirectUriAllowed(game, `http://127.0.0.1:${port}/cb?app=1`)).toBe(false);
      }),
    );
    expect(redirectUriAllowed(game, "http://127.0.0.1/callback")).toBe(true);
    expect(redirectUriAllowed(game, "http://127.0.0.1:0/callback")).toBe(false);
  });

  it("a confidential client's URIs match character for character only, loopback ones included", () => {
    const confidential = { redirect_uris: ["http://127.0.0.1:7777/callback", "http://127.0.0.1/callback"] };
    expect(redirectUriAllowed(confidential, "http://127.0.0.1:7777/callback")).toBe(true);
    expect(redirectUriAllowed(confidential, "http://127.0.0.1:7778/callback")).toBe(false);
    expect(redirectUriAllowed(confidential, "http://127.0.0.1:80/callback")).toBe(false);
    expect(redirectUriAllowed({ ...confidential, token_endpoint_auth_method: "client_secret_basic" }, "http://127.0.0.1:5/callback")).toBe(false);
  });
});

describe("public client registration", () => {
  const base = { name: "n", download_url: "https://d.example", web_url: "https://w.example", platform: "game" };

  it("defaults to a confidential client; none is kept", () => {
    expect(clientRegistrationSchema.parse({ ...base, redirect_uris: ["https://g.example/cb"] }).token_endpoint_auth_method).toBe("client_secret_basic");
    expect(
      clientRegistrationSchema.parse({ ...base, redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" }).token_endpoint_auth_method,
    ).toBe("none");
  });

  it("refuses a public client with a non-loopback redirect URI or the refresh_token grant, naming the field", () => {
    const web = clientRegistrationSchema.safeParse({
      ...base,
      redirect_uris: ["http://127.0.0.1/callback", "https://g.example/cb"],
      token_endpoint_auth_method: "none",
    });
    expect(web.success).toBe(false);
    expect(web.error!.issues).toEqual([expect.objectContaining({ path: ["redirect_uris", 1], message: expect.stringContaining("loopback IP redirect URIs") })]);
    const refresh = clientRegistrationSchema.safeParse({
      ...base,
      redirect_uris: ["http://127.0.0.1/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["refresh_token"],
    });
    expect(refresh.success).toBe(false);
    expect(refresh.error!.issues[0]!.path).toEqual(["grant_types"]);
    expect(
      clientRegistrationSchema.safeParse({ ...base, redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "client_secret_post" }).success,
    ).toBe(false);
  });

  it("a public client may use the device grant", () => {
    const parsed = clientRegistrationSchema.parse({
      ...base,
      redirect_uris: ["http://[::1]/callback"],
      token_endpoint_auth_method: "none",
      grant_types: ["urn:ietf:params:oauth:grant-type:device_code"],
    });
    expect(parsed.grant_types).toEqual(["authorization_code", "urn:ietf:params:oauth:grant-type:device_code"]);
  });
});

describe("the loopback JWT redirect (spec 4.14): a confidential desktop or game client's http://127.0.0.1:{port}/callback only", () => {
  it("is taken by desktop and game clients on 127.0.0.1 or [::1] with a port and the path /callback", () => {
    for (const platform of ["desktop", "game"] as const) {
      for (const uri of ["http://127.0.0.1:7777/callback", "http://[::1]:1/callback"]) expect(loopbackJwtRedirect({ platform }, uri), uri).toBe(true);
      for (const uri of ["http://127.0.0.1/callback", "http://127.0.0.1:7777/cb", "http://localhost:7777/callback", "https://127.0.0.1:7777/callback"]) {
        expect(loopbackJwtRedirect({ platform }, uri), uri).toBe(false);
      }
      expect(loopbackJwtRedirect({ platform, token_endpoint_auth_method: "none" }, "http://127.0.0.1:7777/callback"), "a public client gets a code").toBe(
        false,
      );
    }
  });

  it("never for a web client, whatever the URI", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 65535 }), fc.constantFrom("127.0.0.1", "[::1]"), (port, host) => {
        expect(loopbackJwtRedirect({ platform: "web" }, `http://${host}:${port}/callback`)).toBe(false);
        expect(loopbackJwtRedirect({ platform: "game" }, `http://${host}:${port}/callback`)).toBe(true);
      }),
    );
  });
});
