import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { deliveredCallbackUrl, metaCallbackHandler, sealedCallback } from "../../src/oauth/backend-flow/callback-delivery.js";
import { OutboxSeal, SealOpenError } from "../../src/status/outbox/seal.js";
import type { OutboxRow } from "../../src/status/outbox/outbox-store.js";

const PEPPER = "unit-pepper-0123456789abcdefghijklmnopqrstuv";
const TARGET = "https://backend.example/api/slotgate/callback?tenant=7&state=s1&success=1";

describe("OutboxSeal (AES-256-GCM under a key derived from the pepper)", () => {
  it("round-trips any string parameters for the same target URL, and the sealed text never contains them", () => {
    const seal = new OutboxSeal(PEPPER);
    fc.assert(
      fc.property(fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.string({ minLength: 8, maxLength: 200 })), fc.webUrl(), (params, url) => {
        const sealed = seal.seal(params, url);
        expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
        for (const value of Object.values(params)) expect(sealed).not.toContain(value);
        expect(seal.open(sealed, url)).toEqual(params);
      }),
    );
  });

  it("refuses another target URL, another key, an altered value and garbage with SealOpenError", () => {
    const seal = new OutboxSeal(PEPPER);
    const sealed = seal.seal({ code: "the-one-time-code-0123456789" }, TARGET);
    expect(() => seal.open(sealed, TARGET.replace("s1", "s2"))).toThrow(SealOpenError);
    expect(() => new OutboxSeal(`${PEPPER}x`).open(sealed, TARGET)).toThrow(SealOpenError);
    const body = sealed.slice(3);
    const flipped = `v1.${body.slice(0, 10)}${body[10] === "A" ? "B" : "A"}${body.slice(11)}`;
    expect(() => seal.open(flipped, TARGET)).toThrow(SealOpenError);
    fc.assert(
      fc.property(fc.string(), (junk) => {
        expect(() => seal.open(junk, TARGET)).toThrow(SealOpenError);
      }),
    );
  });

  it("opens a value sealed before the outbox used @slotgate/storage's sealing (same format, same key)", () => {
    const before = "v1.elflUkfqdR8pDiN00OVnyeVZWx1s6z1Uyj9uSclc3maRDuGTWLSU7prWZ8AWWz0gvBBXqQTReyBrMRXpd3_pDGUj";
    expect(new OutboxSeal(PEPPER).open(before, "https://backend.example/api/slotgate/callback?tenant=7&state=s1&success=1")).toEqual({
      code: "code-sealed-before-issue-28",
    });
  });

  it("seals two equal codes differently (a fresh IV each time)", () => {
    const seal = new OutboxSeal(PEPPER);
    expect(seal.seal({ code: "c" }, TARGET)).not.toBe(seal.seal({ code: "c" }, TARGET));
  });
});

describe("sealed backend callbacks", () => {
  it("stores state and success in the target URL and the code only sealed; delivery puts the code back", () => {
    const seal = new OutboxSeal(PEPPER);
    const message = sealedCallback(seal, "https://backend.example/cb?tenant=7", "code-0123456789abcdef", "corr-1");
    expect(message.targetUrl).toBe("https://backend.example/cb?tenant=7&state=corr-1&success=1");
    expect(message.sealedQuery).not.toContain("code-0123456789abcdef");
    const delivered = new URL(deliveredCallbackUrl(seal, { target_url: message.targetUrl, sealed_query: message.sealedQuery }));
    expect(Object.fromEntries(delivered.searchParams)).toEqual({ tenant: "7", state: "corr-1", success: "1", code: "code-0123456789abcdef" });
  });

  it("gives up at once (not retryable) on a sealed code this server's key cannot open", async () => {
    const message = sealedCallback(new OutboxSeal("another-pepper-0123456789abcdefghijklmnop"), "http://127.0.0.1:9/cb", "code-0123456789abcdef", "s");
    const row: OutboxRow = {
      id: "1",
      topic: "oauth_meta.callback",
      target_url: message.targetUrl,
      sealed_query: message.sealedQuery,
      payload: {},
      attempts: 1,
      max_attempts: 6,
      request_id: null,
    };
    const result = await metaCallbackHandler({ seal: new OutboxSeal(PEPPER) }).deliver(row);
    expect(result).toEqual({ ok: false, error: "sealed code cannot be opened with this server's key", retryable: false });
  });
});
