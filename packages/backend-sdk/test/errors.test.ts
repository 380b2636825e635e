import { describe, expect, it } from "vitest";
import { BACKEND_ERRORS, SlotgateBackendError, isSlotgateBackendError } from "../src/index.js";

describe("SlotgateBackendError", () => {
  it("maps the specification's backend errors to its HTTP statuses and messages (spec 7)", () => {
    expect(BACKEND_ERRORS.callback_timeout).toEqual({ status: 408, message: "authorize callback timeout" });
    expect(BACKEND_ERRORS.expired_token).toEqual({ status: 401, message: "EXPIRED_TOKEN" });
    expect(BACKEND_ERRORS.authorize_error).toEqual({ status: 502, message: "AUTHORIZE_ERROR" });
    expect(BACKEND_ERRORS.callback_rejected).toEqual({ status: 502, message: "authorize callback rejected" });
    expect(BACKEND_ERRORS.shutdown).toEqual({ status: 503, message: "shutdown" });
    expect(BACKEND_ERRORS.missing_token.status).toBe(400);
  });

  it("carries code, status, the service's answer and cause; toJSON leaves out stack and cause", () => {
    const cause = new Error("socket hang up");
    const err = new SlotgateBackendError("authorize_error", { detail: "invalid_client (HTTP 401)", error: "invalid_client", serviceStatus: 401, cause });
    expect(err.message).toBe("AUTHORIZE_ERROR: invalid_client (HTTP 401)");
    expect(err.cause).toBe(cause);
    expect(err.toJSON()).toEqual({
      name: "SlotgateBackendError",
      code: "authorize_error",
      status: 502,
      message: "AUTHORIZE_ERROR: invalid_client (HTTP 401)",
      error: "invalid_client",
    });
    expect(isSlotgateBackendError(err)).toBe(true);
    expect(isSlotgateBackendError(err, "authorize_error")).toBe(true);
    expect(isSlotgateBackendError(err, "shutdown")).toBe(false);
    expect(isSlotgateBackendError(new Error("x"))).toBe(false);
  });
});
