// Child process of pin-flood.mjs: `users.length` clients, each hammering POST /v1/pin/verify for its own
// user with wrong PINs (its own address in X-Forwarded-For), back to back, without honouring Retry-After,
// for `seconds`. Reports the answers by status and error code.
import { createHash } from "node:crypto";

// Warm before the flood starts (fetch and its connection pool loaded), so that starting this process
// is not counted in the flood phase.
await fetch(process.argv[2])
  .then((res) => res.arrayBuffer())
  .catch(() => undefined);
process.send({ type: "ready" });
process.once("message", async ({ url, users, seconds }) => {
  const counts = {};
  const end = Date.now() + seconds * 1000;
  await Promise.all(
    users.map(async (u, i) => {
      while (Date.now() < end) {
        const pin = String(100000 + Math.floor(Math.random() * 900000));
        const body = {
          user_uuid: u.uuid,
          pin_hash: createHash("sha256")
            .update(pin + u.pin_salt)
            .digest("hex"),
          pin_salt: u.pin_salt,
          key_share_user: u.key_share_user,
        };
        try {
          const res = await fetch(`${url}/v1/pin/verify`, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              authorization: `Bearer ${u.token}`,
              "x-forwarded-for": `10.99.${Math.floor(i / 250)}.${(i % 250) + 1}`,
            },
            body: JSON.stringify(body),
          });
          const answer = await res.json().catch(() => ({}));
          const key = `${res.status} ${answer.error ?? ""}`.trim();
          counts[key] = (counts[key] ?? 0) + 1;
        } catch (error) {
          counts[`network ${error.cause?.code ?? error.message}`] = (counts[`network ${error.cause?.code ?? error.message}`] ?? 0) + 1;
        }
      }
    }),
  );
  process.send({ type: "done", counts });
});
