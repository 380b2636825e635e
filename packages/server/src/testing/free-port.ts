import { createServer } from "node:net";

/**
 * A TCP port that is free on 127.0.0.1 right now (the OS picks it; the probe socket is closed before this resolves).
 *
 * @example
 * ```ts
 * import { freeLoopbackPort } from "@slotgate/server/testing";
 *
 * const redirectUri = `http://127.0.0.1:${await freeLoopbackPort()}/callback`;
 * ```
 */
export async function freeLoopbackPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (typeof address !== "object" || address === null) throw new Error("no port was assigned on 127.0.0.1");
  return address.port;
}
