import { signWebhook } from "@slotgate/server";
import { describe, expect, it } from "vitest";
import { type SlotgateBackendError, isSlotgateBackendError, verifyWebhook } from "../src/index.js";
import { fetchServer } from "./support/http-server.js";

const SECRET = "marketplace-secret-0123456789abcdefghij";
const NOW = 1_800_000_000;
const event = {
  id: "42",
  type: "login_status.changed",
  user_id: "7",
  client_id: "sg_game",
  status: "logged_out",
  transfer_enabled: true,
  timestamp: "2027-01-15T08:00:00.000Z",
};
const body = JSON.stringify(event);
const at = (seconds: number) => ({ secret: SECRET, now: () => seconds * 1000 });

async function codeOf(promise: Promise<unknown>): Promise<string> {
  return promise.then(
    () => "ok",
    (error: SlotgateBackendError) => `${error.code} ${error.status}`,
  );
}

describe("verifyWebhook", () => {
  it("returns the event of a body signed as the service signs it (string or raw bytes)", async () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(await verifyWebhook(body, header, at(NOW))).toEqual(event);
    expect(await verifyWebhook(new TextEncoder().encode(body), header, at(NOW + 299))).toEqual(event);
  });

  it("accepts either secret during a rotation, and any of several v1 signatures", async () => {
    const header = signWebhook("old-secret-0123456789abcdefghijklmnopq", body, NOW);
    expect(await verifyWebhook(body, header, { secret: [SECRET, "old-secret-0123456789abcdefghijklmnopq"], now: () => NOW * 1000 })).toEqual(event);
    const both = `${signWebhook(SECRET, body, NOW)},v1=${"0".repeat(64)}`;
    expect(await verifyWebhook(body, both, at(NOW))).toEqual(event);
  });

  it("refuses a changed body, another secret, a missing or malformed header", async () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(await codeOf(verifyWebhook(body.replace("logged_out", "logged_in"), header, at(NOW)))).toBe("webhook_signature_invalid 400");
    expect(await codeOf(verifyWebhook(body, signWebhook("another-secret-0123456789abcdefghijkl", body, NOW), at(NOW)))).toBe("webhook_signature_invalid 400");
    for (const bad of [undefined, null, "", "v1=abc", `t=${NOW}`, `t=x,v1=${"a".repeat(64)}`, `t=${NOW},v1=${"A".repeat(64)}`]) {
      expect(await codeOf(verifyWebhook(body, bad, at(NOW))), String(bad)).toBe("webhook_signature_invalid 400");
    }
    // The signature covers the time: moving t breaks it.
    expect(await codeOf(verifyWebhook(body, header.replace(`t=${NOW}`, `t=${NOW + 1}`), at(NOW)))).toBe("webhook_signature_invalid 400");
  });

  it("refuses a signature older or newer than the tolerance (a replay)", async () => {
    const header = signWebhook(SECRET, body, NOW);
    expect(await codeOf(verifyWebhook(body, header, at(NOW + 301)))).toBe("webhook_timestamp_out_of_window 400");
    expect(await codeOf(verifyWebhook(body, header, at(NOW - 301)))).toBe("webhook_timestamp_out_of_window 400");
    expect(await codeOf(verifyWebhook(body, header, { ...at(NOW + 1000), toleranceSeconds: 1000 }))).toBe("ok");
  });

  it("refuses a correctly signed body that is not a login-status event", async () => {
    for (const other of [
      "not json",
      "[]",
      JSON.stringify({ ...event, type: "other" }),
      JSON.stringify({ ...event, transfer_enabled: false }),
      JSON.stringify({ ...event, timestamp: "later" }),
    ]) {
      expect(await codeOf(verifyWebhook(other, signWebhook(SECRET, other, NOW), at(NOW))), other).toBe("webhook_payload_invalid 400");
    }
  });

  it("needs a secret", async () => {
    expect(await codeOf(verifyWebhook(body, signWebhook(SECRET, body, NOW), { secret: "" }))).toBe("invalid_options 500");
  });
});

describe("verifyWebhook(request) on web standards", () => {
  it("verifies the raw body and header of a Request a real fetch-handler server received", async () => {
    const seen: string[] = [];
    const server = await fetchServer(async (request) => {
      try {
        const verified = await verifyWebhook(request, at(NOW));
        seen.push(verified.id);
        return new Response(null, { status: 204 });
      } catch (error) {
        seen.push(isSlotgateBackendError(error) ? error.code : "unexpected");
        return new Response(null, { status: isSlotgateBackendError(error) ? error.status : 500 });
      }
    });
    try {
      const post = (payload: string | Uint8Array, headers: Record<string, string>) =>
        fetch(`${server.origin}/webhooks/slotgate`, { method: "POST", body: payload, headers: { "content-type": "application/json", ...headers } });
      expect((await post(body, { "Slotgate-Signature": signWebhook(SECRET, body, NOW) })).status).toBe(204);
      expect((await post(body.replace("42", "43"), { "Slotgate-Signature": signWebhook(SECRET, body, NOW) })).status).toBe(400);
      expect((await post(body, {})).status).toBe(400);
      const huge = JSON.stringify({ ...event, pad: "x".repeat(70_000) });
      expect((await post(huge, { "Slotgate-Signature": signWebhook(SECRET, huge, NOW) })).status).toBe(400);
      expect(seen).toEqual(["42", "webhook_signature_invalid", "webhook_signature_invalid", "webhook_payload_invalid"]);
    } finally {
      await server.close();
    }
  });

  it("caps a body sent without a length (chunked) at 64 KiB without reading the rest", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024));
    let pulled = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled++;
        if (pulled > 1000) controller.close();
        else controller.enqueue(chunk);
      },
    });
    const request = new Request("https://market.example/webhooks/slotgate", {
      method: "POST",
      body: stream,
      headers: { "Slotgate-Signature": signWebhook(SECRET, body, NOW) },
      duplex: "half",
    } as RequestInit);
    expect(await codeOf(verifyWebhook(request, at(NOW)))).toBe("webhook_payload_invalid 400");
    expect(pulled).toBeLessThan(10);
  });
});
