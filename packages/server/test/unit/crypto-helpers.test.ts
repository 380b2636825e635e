import { createHash, createHmac } from "node:crypto";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ClientSecrets } from "../../src/oauth/clients/client-auth.js";
import { jsonForScript } from "../../src/platform/http/html.js";
import { signWebhook } from "../../src/index.js";
import { pkceMatches } from "../../src/oauth/token/authorization-code.js";
import { hashPassword, verifyPassword } from "../../src/identity/users/passwords.js";

const cheap = { N: 1024, r: 8, p: 1 };

describe("passwords (scrypt)", () => {
  it("round-trips and refuses other passwords", async () => {
    const stored = await hashPassword("correct horse", cheap);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword("correct horse", stored)).toBe(true);
    expect(await verifyPassword("correct horsf", stored)).toBe(false);
    expect(await verifyPassword("correct horse", "garbage")).toBe(false);
  });
  it("salts: the same password hashes differently", async () => {
    expect(await hashPassword("same", cheap)).not.toBe(await hashPassword("same", cheap));
  });
});

describe("client secrets", () => {
  const secrets = new ClientSecrets("pepper-0123456789abcdefghijklmnopqrstuvwxyz");
  it("are 256-bit base64url and verify only against their own keyed hash", () => {
    const s = secrets.generate();
    expect(s).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const h = secrets.hash(s);
    expect(h).not.toContain(s);
    expect(secrets.verify(s, h)).toBe(true);
    expect(secrets.verify(`${s}x`, h)).toBe(false);
    expect(new ClientSecrets("another-pepper-0123456789abcdefghijklmnop").verify(s, h)).toBe(false);
  });
});

describe("PKCE S256", () => {
  it("matches exactly BASE64URL(SHA256(verifier)) for any verifier", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[A-Za-z0-9\-._~]{43,128}$/), (v) => {
        const c = createHash("sha256").update(v).digest("base64url");
        expect(pkceMatches(v, c)).toBe(true);
        expect(pkceMatches(`${v}a`, c)).toBe(false);
      }),
    );
  });
});

describe("webhook signatures", () => {
  it("are HMAC-SHA256 over `t.body`", () => {
    const sig = signWebhook("s".repeat(32), '{"a":1}', 1700000000);
    expect(sig).toBe(`t=1700000000,v1=${createHmac("sha256", "s".repeat(32)).update('1700000000.{"a":1}').digest("hex")}`);
  });
});

describe("HTML output", () => {
  it("keeps </script> and friends out of embedded JSON, and round-trips", () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const out = jsonForScript(v);
        expect(out).not.toMatch(/[<>]/);
        expect(JSON.parse(out)).toEqual(JSON.parse(JSON.stringify(v)));
      }),
    );
  });
});
