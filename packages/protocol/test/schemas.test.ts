import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  authorizeQuerySchema,
  authorizeStateRequired,
  clientRegistrationSchema,
  deviceAuthorizationRequestSchema,
  deviceTokenRequestSchema,
  refreshTokenRequestSchema,
  userCodeSchema,
  increaseUsedContentTokenSchema,
  initPermissionProviderSchema,
  pinRegisterSchema,
  slotActivateSchema,
  slotOpenSchema,
  slotParamsSchema,
  spendPayloadSchema,
  statusUpdateSchema,
  summarizeDetails,
  tokenRequestSchema,
  userBuyContentTokenSchema,
  validationDetails,
} from "../src/schemas.js";

const addr = "0x" + "ab".repeat(20);

describe("request schemas", () => {
  it("accepts a spec-shaped token request and ignores unknown OAuth parameters", () => {
    const r = tokenRequestSchema.parse({
      grant_type: "authorization_code",
      code: "c",
      redirect_uri: "https://app.example/cb",
      client_id: "id",
      client_secret: "s",
      scope: "ignored",
    });
    expect(r).not.toHaveProperty("scope");
  });

  it("rejects extra fields on JSON APIs and names them", () => {
    const r = statusUpdateSchema.safeParse({ user_id: "1", client_id: "c", admin: true });
    expect(r.success).toBe(false);
    expect(validationDetails(r.error!)).toEqual([{ path: "(body)", message: "unknown field(s): admin" }]);
  });

  it("says which field is missing", () => {
    const r = statusUpdateSchema.safeParse({ user_id: "1" });
    const details = validationDetails(r.error!);
    expect(details).toEqual([{ path: "client_id", message: "is required" }]);
    expect(summarizeDetails(details)).toBe("client_id is required");
  });

  it("tells a missing field from a wrong-typed one, with or without reportInput", () => {
    for (const options of [undefined, { reportInput: true }]) {
      const r = statusUpdateSchema.safeParse({ user_id: 5 }, options);
      const details = validationDetails(r.error!);
      expect(details).toContainEqual({ path: "client_id", message: "is required" });
      expect(details.find((d) => d.path === "user_id")?.message).toMatch(/expected string, received number/);
    }
  });

  it("names the body itself when it is not an object", () => {
    const r = statusUpdateSchema.safeParse("just a string");
    expect(validationDetails(r.error!)[0]!.path).toBe("(body)");
  });

  it("requires response_type=code on authorize", () => {
    const r = authorizeQuerySchema.safeParse({ client_id: "a", redirect_uri: "b", response_type: "token", state: "s" });
    expect(r.success).toBe(false);
    expect(validationDetails(r.error!)[0]).toEqual({ path: "response_type", message: "must be code" });
  });

  it("lets PKCE S256 stand in for state only on a code redirect (authorizeStateRequired)", () => {
    const challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
    expect(authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "S256" }, false)).toBe(false);
    expect(authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "S256", display: "page" }, false)).toBe(false);
    expect(authorizeStateRequired({}, false)).toBe(true);
    expect(authorizeStateRequired({ code_challenge: challenge }, false)).toBe(true);
    expect(authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "plain" }, false)).toBe(true);
    expect(authorizeStateRequired({ code_challenge: "", code_challenge_method: "S256" }, false)).toBe(true);
    expect(authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "S256", display: "popup" }, false)).toBe(true);
    expect(authorizeStateRequired({ code_challenge: challenge, code_challenge_method: "S256" }, true)).toBe(true);
    expect(authorizeQuerySchema.safeParse({ client_id: "a", redirect_uri: "b", response_type: "code" }).success).toBe(true);
  });

  it("bounds release_per to 0-100 integers", () => {
    const base = { client_id: "c", cuid: "game-1", owner_addr: addr };
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: 0 }).success).toBe(true);
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: 100 }).success).toBe(true);
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: 101 }).success).toBe(false);
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: -1 }).success).toBe(false);
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: 1.5 }).success).toBe(false);
    expect(initPermissionProviderSchema.safeParse({ ...base, release_per: "50" }).success).toBe(false);
  });

  it("accepts wei and ether amounts for a purchase but not zero, negatives or junk", () => {
    const base = { client_id: "c", user_dbkey: "1", cuid: "g" };
    for (const ok of ["1", "1000000000000000000", "1.5", "0.000000000000000001"]) {
      expect(userBuyContentTokenSchema.safeParse({ ...base, amount: ok }).success, ok).toBe(true);
    }
    for (const bad of ["0", "0.0", "-1", "1e18", "01", "1.", "0x10", "1.0000000000000000001", ""]) {
      expect(userBuyContentTokenSchema.safeParse({ ...base, amount: bad }).success, bad).toBe(false);
    }
  });

  it("requires 64-hex salts and SHA-256 hashes for PIN registration", () => {
    const ok = { user_uuid: 7, pin_hash: "a".repeat(64), pin_salt: "b".repeat(64) };
    expect(pinRegisterSchema.safeParse(ok).success).toBe(true);
    expect(pinRegisterSchema.safeParse({ ...ok, pin_salt: "b".repeat(63) }).success).toBe(false);
    expect(pinRegisterSchema.safeParse({ ...ok, user_uuid: "7" }).success).toBe(false);
    expect(pinRegisterSchema.safeParse({ ...ok, pin: "123456" }).success).toBe(false);
  });

  it("requires even-length hex for encrypted_message", () => {
    expect(increaseUsedContentTokenSchema.safeParse({ encrypted_message: "abc" }).success).toBe(false);
    expect(increaseUsedContentTokenSchema.safeParse({ encrypted_message: "zz" }).success).toBe(false);
    expect(increaseUsedContentTokenSchema.safeParse({ encrypted_message: "ab01" }).success).toBe(true);
  });

  it("rejects non-http redirect URIs at client registration", () => {
    const base = { name: "n", download_url: "https://d.example", web_url: "https://w.example", platform: "web" };
    expect(clientRegistrationSchema.safeParse({ ...base, redirect_uris: ["javascript:alert(1)"] }).success).toBe(false);
    expect(clientRegistrationSchema.parse({ ...base, redirect_uris: ["http://127.0.0.1:7777/callback"] }).blockchain).toBe(false);
  });

  it("client grant_types: authorization_code always first, opt-ins kept, unknown or repeated grants refused", () => {
    const base = { name: "n", download_url: "https://d.example", web_url: "https://w.example", platform: "game", redirect_uris: ["https://g.example/cb"] };
    expect(clientRegistrationSchema.parse(base).grant_types).toEqual(["authorization_code"]);
    expect(clientRegistrationSchema.parse({ ...base, grant_types: ["urn:ietf:params:oauth:grant-type:device_code", "refresh_token"] }).grant_types).toEqual([
      "authorization_code",
      "urn:ietf:params:oauth:grant-type:device_code",
      "refresh_token",
    ]);
    expect(clientRegistrationSchema.safeParse({ ...base, grant_types: ["password"] }).success).toBe(false);
    expect(clientRegistrationSchema.safeParse({ ...base, grant_types: ["refresh_token", "refresh_token"] }).success).toBe(false);
  });

  it("user codes: case, dashes and spaces do not matter; other letters and lengths are refused", () => {
    expect(userCodeSchema.parse("bdfh-jklm")).toBe("BDFHJKLM");
    expect(userCodeSchema.parse(" BDFH JKLM ")).toBe("BDFHJKLM");
    for (const bad of ["BDFH-JKL", "ABCD-EFGH", "BDFH-JKLM-N", "", "x".repeat(40)]) expect(userCodeSchema.safeParse(bad).success, bad).toBe(false);
    fc.assert(
      fc.property(fc.string(), (s) => {
        const r = userCodeSchema.safeParse(s);
        if (r.success) expect(r.data).toMatch(/^[BCDFGHJKLMNPQRSTVWXZ]{8}$/);
      }),
    );
  });

  it("refresh and device token requests name their grant and need their token", () => {
    expect(refreshTokenRequestSchema.safeParse({ grant_type: "refresh_token", refresh_token: "sgr_x" }).success).toBe(true);
    expect(refreshTokenRequestSchema.safeParse({ grant_type: "refresh_token" }).success).toBe(false);
    expect(deviceTokenRequestSchema.safeParse({ grant_type: "urn:ietf:params:oauth:grant-type:device_code", device_code: "d", client_id: "c" }).success).toBe(
      true,
    );
    expect(deviceTokenRequestSchema.safeParse({ grant_type: "refresh_token", device_code: "d" }).success).toBe(false);
    expect(deviceAuthorizationRequestSchema.safeParse({ client_id: "c", scope: "ignored" }).success).toBe(true);
  });

  it("slot path parameters: meta_idx arrives as a decimal string and leaves as a number; signs, fractions and junk are refused", () => {
    expect(slotParamsSchema.parse({ cu_id: "game-1", meta_idx: "12" })).toEqual({ cu_id: "game-1", meta_idx: 12 });
    for (const bad of ["-1", "1.5", "01", "x", "", "99999999999999999"])
      expect(slotParamsSchema.safeParse({ cu_id: "game-1", meta_idx: bad }).success).toBe(false);
    expect(slotActivateSchema.safeParse({ cu_id: "game-1", meta_idx: 2 }).success).toBe(true);
    expect(slotActivateSchema.safeParse({ cu_id: "game-1", meta_idx: "2" }).success).toBe(false);
    expect(slotOpenSchema.safeParse({ cu_id: "bad cuid" }).success).toBe(false);
  });

  it("never throws on arbitrary input: every schema answers success or a list of details", () => {
    const all = [
      statusUpdateSchema,
      tokenRequestSchema,
      refreshTokenRequestSchema,
      deviceTokenRequestSchema,
      spendPayloadSchema,
      pinRegisterSchema,
      userBuyContentTokenSchema,
      slotOpenSchema,
      slotActivateSchema,
      slotParamsSchema,
    ];
    fc.assert(
      fc.property(fc.anything(), (input) => {
        for (const schema of all) {
          const r = schema.safeParse(input);
          if (!r.success) {
            const details = validationDetails(r.error);
            expect(details.length).toBeGreaterThan(0);
            for (const d of details) expect(typeof d.message).toBe("string");
          }
        }
      }),
      { numRuns: 300 },
    );
  });
});
