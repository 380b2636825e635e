import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { interpretCallback } from "../src/loopback/callback.js";
import { SAMPLE_JWT } from "./helpers/fake-browser.js";

const STATE = "Yk6yWc3J1wq3b0f5p3oQ1y0a9mLq2d7sX8tV4nR6uZc";

describe("interpretCallback", () => {
  it("accepts exactly one well-formed jwt with the expected state", () => {
    expect(interpretCallback(new URLSearchParams({ jwt: SAMPLE_JWT, state: STATE }), STATE)).toEqual({
      ok: true,
      jwt: SAMPLE_JWT,
    });
  });

  it("accepts exactly one well-formed code with the expected state (a public client's redirect)", () => {
    expect(interpretCallback(new URLSearchParams({ code: "AbC-12_x", state: STATE }), STATE)).toEqual({ ok: true, code: "AbC-12_x" });
    for (const query of [`code=a&code=b&state=${STATE}`, `code=&state=${STATE}`, `code=a%20b&state=${STATE}`, `code=a&jwt=${SAMPLE_JWT}&state=${STATE}`]) {
      const outcome = interpretCallback(new URLSearchParams(query), STATE);
      expect(outcome.ok ? "ok" : outcome.error.code, query).toBe("missing_jwt");
    }
  });

  it("checks the state before anything else, even before an error redirect", () => {
    const outcome = interpretCallback(new URLSearchParams({ error: "access_denied", state: "other" }), STATE);
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("state_mismatch");
  });

  it("refuses two jwt values", () => {
    const outcome = interpretCallback(new URLSearchParams(`jwt=${SAMPLE_JWT}&jwt=${SAMPLE_JWT}&state=${STATE}`), STATE);
    expect(outcome.ok ? "ok" : outcome.error.code).toBe("missing_jwt");
  });

  it("truncates a very long error_description", () => {
    const outcome = interpretCallback(new URLSearchParams({ error: "server_error", error_description: "x".repeat(5000), state: STATE }), STATE);
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.message.length).toBeLessThan(450);
  });

  it("never succeeds unless the state is exactly the expected one (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (state, jwt) => {
        fc.pre(state !== STATE);
        const outcome = interpretCallback(new URLSearchParams({ jwt, state }), STATE);
        expect(outcome.ok).toBe(false);
      }),
    );
  });

  it("never puts the jwt or the state into an error message (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom("jwt", "state", "error", "error_description", "code"), fc.string()), (params) => {
        const query = new URLSearchParams({ ...params, state: STATE });
        const outcome = interpretCallback(query, STATE);
        if (!outcome.ok) {
          expect(outcome.error.message).not.toContain(STATE);
          const code = params["code"] ?? "";
          if (params["error"] === undefined && code.length > 8) expect(outcome.error.message).not.toContain(code);
          const jwt = params["jwt"] ?? "";
          // error_description is echoed on purpose; without one, nothing from the query may appear.
          if (params["error"] === undefined && jwt.length > 8) expect(outcome.error.message).not.toContain(jwt);
        }
      }),
    );
  });
});
