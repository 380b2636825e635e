import { describe, expect, it } from "vitest";
import { ERROR_CODES, ERRORS, isErrorCode } from "../src/index.js";

describe("error catalogue", () => {
  it("maps every code to a 4xx or 5xx status and a non-empty message", () => {
    for (const code of ERROR_CODES) {
      const { status, message } = ERRORS[code];
      expect(status, code).toBeGreaterThanOrEqual(400);
      expect(status, code).toBeLessThan(600);
      expect(message.length, code).toBeGreaterThan(10);
    }
  });

  it("keeps the spellings and statuses the specification fixes", () => {
    expect(ERRORS.ERR_MISSING_PARAMS.status).toBe(400);
    expect(ERRORS.invalid_client.status).toBe(401);
    expect(ERRORS.redirect_uri_mismatch.status).toBe(401);
    expect(ERRORS.redirect_uri_mismatch.message).toMatch(/^redirect_uri mismatch/);
  });

  it("only internal errors (a stored secret that fails its integrity check is one) and unavailability of the chain or an identity provider are 5xx: bad input is always 4xx", () => {
    const fiveHundreds = ERROR_CODES.filter((c) => ERRORS[c].status >= 500).sort();
    expect(fiveHundreds).toEqual(["chain_unavailable", "identity_provider_error", "internal_error", "sealed_record_invalid", "service_unavailable"]);
  });

  it("recognises codes and rejects everything else", () => {
    expect(isErrorCode("invalid_grant")).toBe(true);
    expect(isErrorCode("toString")).toBe(false);
    expect(isErrorCode("__proto__")).toBe(false);
    expect(isErrorCode(42)).toBe(false);
  });
});
