import { spawn } from "node:child_process";
import { GameSdkBridgeError } from "./errors.js";

/**
 * Opens a URL for the player. {@link login} calls it once with the authorize URL.
 * It may return a promise; a throw or rejection ends the login with `browser_open_failed`.
 *
 * @example
 * ```ts
 * import { type OpenBrowser, login } from "@slotgate/game-sdk-bridge";
 *
 * // A tool on a machine without a desktop: let the player open the address elsewhere on this machine.
 * const openBrowser: OpenBrowser = (url) => console.log(`Open this address to sign in: ${url}`);
 * const result = await login(config, { openBrowser });
 * ```
 */
export type OpenBrowser = (url: string) => void | Promise<void>;

function requireWebUrl(url: string): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new GameSdkBridgeError("browser_open_failed", "Refusing to open a value that is not an absolute URL.");
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw new GameSdkBridgeError("browser_open_failed", "Only http and https URLs are opened in the browser.");
  }
}

/** Starts `command args...` detached, without a shell, and resolves once the process exists. */
function launch(command: string, args: readonly string[]): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, windowsHide: true, shell: false });
    child.once("error", (error: NodeJS.ErrnoException) => {
      reject(new GameSdkBridgeError("browser_open_failed", `Could not start the browser opener "${command}" (${error.code ?? "error"}).`, { cause: error }));
    });
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}

/**
 * The platform's opener for a URL: `open` on macOS, `rundll32 url.dll,FileProtocolHandler`
 * on Windows and `xdg-open` elsewhere. @internal
 */
export function systemOpenerCommand(platform: NodeJS.Platform, url: string): [string, string[]] {
  if (platform === "darwin") return ["open", [url]];
  // Not `cmd /c start "" <url>`: cmd.exe would re-parse the URL and split it at every "&".
  if (platform === "win32") return ["rundll32", ["url.dll,FileProtocolHandler", url]];
  return ["xdg-open", [url]];
}

/**
 * Opens an http(s) URL in the system browser, the default opener of {@link login}.
 * The URL is passed to the platform opener as one argument (never through a
 * shell). It resolves once the opener process has started; whether a browser
 * window then appears is up to the desktop, which is why {@link login} also has a timeout.
 *
 * @throws {@link GameSdkBridgeError} `browser_open_failed` when the URL is not http(s) or no opener could be started.
 * @example
 * ```ts
 * import { openSystemBrowser } from "@slotgate/game-sdk-bridge";
 *
 * await openSystemBrowser("https://auth.slotgate.io/");
 * ```
 */
export async function openSystemBrowser(url: string): Promise<void> {
  requireWebUrl(url);
  const [command, args] = systemOpenerCommand(process.platform, url);
  await launch(command, args);
}

/**
 * Makes an opener that runs a given command with the URL as its last argument,
 * e.g. `"firefox --new-window"`. The command is split on whitespace and run
 * without a shell (no quoting, no variables); point it at a script when it
 * needs more. The `slotgate-login` CLI builds its opener this way from the
 * `SLOTGATE_BROWSER` environment variable.
 *
 * @throws {@link GameSdkBridgeError} `invalid_config` when the command is empty.
 * @example
 * ```ts
 * import { createCommandOpener, login } from "@slotgate/game-sdk-bridge";
 *
 * const result = await login(
 *   { ClientId: "my-game", RedirectUri: "http://127.0.0.1:53682/callback" },
 *   { openBrowser: createCommandOpener("firefox --private-window") },
 * );
 * ```
 */
export function createCommandOpener(command: string): (url: string) => Promise<void> {
  const [program, ...args] = command
    .trim()
    .split(/\s+/)
    .filter((part) => part !== "");
  if (program === undefined) {
    throw new GameSdkBridgeError("invalid_config", "The browser command is empty.");
  }
  return async (url: string) => {
    requireWebUrl(url);
    await launch(program, [...args, url]);
  };
}
