import { type Server, createServer } from "node:http";
import { SlotgateBackend } from "@slotgate/backend-sdk";

/** Path of the game backend's callback (a redirect URI of the game's client). */
export const GAME_CALLBACK_PATH = "/slotgate/callback";

/** A game's own backend on 127.0.0.1: the backend SDK with its callback mounted, as a game runs it. */
export interface GameBackend {
  /** The backend SDK of the game's client (its `getSlotInfo` is the game's code exchange). */
  slotgate: SlotgateBackend;
  /** The callback URL to register as a redirect URI of the game's client. */
  callbackUrl: string;
  close(): Promise<void>;
}

/**
 * Starts a {@link GameBackend} listening on `port`.
 *
 * @example
 * ```ts
 * const game = await startGameBackend({ port: await freeLoopbackPort(), authServerUrl: service.url, clientId, clientSecret });
 * const info = await game.slotgate.getSlotInfo(jwt);
 * ```
 */
export async function startGameBackend(options: { port: number; authServerUrl: string; clientId: string; clientSecret: string }): Promise<GameBackend> {
  const callbackUrl = `http://127.0.0.1:${options.port}${GAME_CALLBACK_PATH}`;
  const slotgate = new SlotgateBackend({
    authServerUrl: options.authServerUrl,
    clientId: options.clientId,
    clientSecret: options.clientSecret,
    redirectUri: callbackUrl,
  });
  const server: Server = createServer((req, res) => {
    if ((req.url ?? "").split("?")[0] === GAME_CALLBACK_PATH) {
      slotgate.handleCallback(req, res);
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((ok) => server.listen(options.port, "127.0.0.1", ok));
  return {
    slotgate,
    callbackUrl,
    async close() {
      await slotgate.shutdown();
      await new Promise<void>((ok) => server.close(() => ok()));
    },
  };
}
