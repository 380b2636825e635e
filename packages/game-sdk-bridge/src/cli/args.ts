import { parseArgs } from "node:util";
import type { DeviceLoginConfig, LoginConfigPascal } from "../config.js";
import { GameSdkBridgeError } from "../errors.js";

/** What the command line asks for. @internal */
export type CliRequest =
  | { kind: "help" }
  | { kind: "version" }
  | { kind: "login"; config: LoginConfigPascal; timeoutMs: number | undefined }
  | { kind: "device"; config: DeviceLoginConfig };

/** Usage text of `slotgate-login --help`. @internal */
export const USAGE = `Usage: slotgate-login --client-id ID --redirect-uri URI [--slotgate-url URL]
                      [--loopback-port N] [--timeout-ms N]
       slotgate-login --device --client-id ID [--slotgate-url URL]

Signs a player in through the system browser and a loopback redirect (RFC 8252,
PKCE S256: the code is redeemed with the verifier, no secret) and prints exactly
one JSON line on stdout:
  {"Success":true,"Jwt":"eyJ...","ErrorMessage":null,"ErrorCode":null}

With --device (consoles and TVs, RFC 8628) no browser is opened: a first JSON line
carries the code to show the player, then the result line follows once they
entered it on another device (the code, URL and a QR code also go to stderr):
  {"UserCode":"BDFH-JKLM","VerificationUri":"https://…/oauth/device","VerificationUriComplete":"…","ExpiresIn":600}

Options:
  --client-id ID       the client application's public id (required)
  --redirect-uri URI   the registered loopback URI (required): http://127.0.0.1/callback
                       listens on a port the system picks (a public client), or
                       http://127.0.0.1:<port>/callback on that port
  --slotgate-url URL   Slotgate base address (default https://auth.slotgate.io)
  --loopback-port N    port to listen on when the redirect URI names none
  --timeout-ms N       how long to wait for the sign-in (default 120000)
  --device             device login: print a code for the player instead of opening a browser
  --help, --version

Environment:
  SLOTGATE_BROWSER     a command run with the URL as last argument instead of the
                       system browser (split on spaces, no shell)

Exit status: 0 signed in, 1 sign-in failed, 2 invalid arguments.
A client secret is never accepted: it must stay on your game backend.
`;

const STRING_FLAGS = ["client-id", "redirect-uri", "slotgate-url", "loopback-port", "timeout-ms"] as const;
type StringFlag = (typeof STRING_FLAGS)[number];

function usageError(message: string): GameSdkBridgeError {
  return new GameSdkBridgeError("invalid_config", `${message} Run slotgate-login --help for usage.`);
}

function readInteger(flag: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d{1,10}$/.test(value)) throw usageError(`--${flag} must be a whole number.`);
  return Number(value);
}

/**
 * Parses `slotgate-login` arguments. Error messages name flags but never repeat
 * values, so a secret pasted by mistake is not echoed.
 *
 * @throws {@link GameSdkBridgeError} `invalid_config`.
 * @internal
 */
export function parseCliArgs(argv: readonly string[]): CliRequest {
  const { tokens } = parseArgs({
    args: [...argv],
    options: {
      ...Object.fromEntries(STRING_FLAGS.map((flag) => [flag, { type: "string" as const }])),
      help: { type: "boolean" },
      version: { type: "boolean" },
      device: { type: "boolean" },
    },
    strict: false,
    allowPositionals: true,
    tokens: true,
  });
  const values = new Map<StringFlag, string>();
  let help = false;
  let version = false;
  let device = false;
  for (const token of tokens) {
    if (token.kind === "positional") throw usageError("Unexpected argument; every value follows its --flag.");
    if (token.kind !== "option") continue;
    const name = token.name;
    if (/secret/i.test(name)) {
      throw usageError(`--${name} is not accepted: a client secret must never be given to a game build. Keep it on your game backend.`);
    }
    if (name === "help" || name === "version" || name === "device") {
      if (token.value !== undefined) throw usageError(`--${name} takes no value.`);
      if (name === "help") help = true;
      else if (name === "version") version = true;
      else device = true;
      continue;
    }
    if (!(STRING_FLAGS as readonly string[]).includes(name)) throw usageError(`Unknown option --${name}.`);
    const flag = name as StringFlag;
    const value = token.value;
    if (value === undefined || value === "" || (!token.inlineValue && value.startsWith("-"))) {
      throw usageError(`--${flag} needs a value.`);
    }
    if (values.has(flag)) throw usageError(`--${flag} is given more than once.`);
    values.set(flag, value);
  }
  if (help) return { kind: "help" };
  if (version) return { kind: "version" };

  if (device) {
    for (const flag of ["redirect-uri", "loopback-port", "timeout-ms"] as const) {
      if (values.has(flag)) throw usageError(`--${flag} does not apply to --device (no browser redirect; the code's lifetime bounds the wait).`);
    }
    const id = values.get("client-id");
    if (id === undefined) throw usageError("--client-id is required.");
    const url = values.get("slotgate-url");
    return { kind: "device", config: url === undefined ? { ClientId: id } : { ClientId: id, SlotgateUrl: url } };
  }
  const loopbackPort = readInteger("loopback-port", values.get("loopback-port"));
  const timeoutMs = readInteger("timeout-ms", values.get("timeout-ms"));
  const clientId = values.get("client-id");
  const redirectUri = values.get("redirect-uri");
  if (clientId === undefined) throw usageError("--client-id is required.");
  if (redirectUri === undefined) throw usageError("--redirect-uri is required.");
  const config: LoginConfigPascal = { ClientId: clientId, RedirectUri: redirectUri };
  const slotgateUrl = values.get("slotgate-url");
  if (slotgateUrl !== undefined) config.SlotgateUrl = slotgateUrl;
  if (loopbackPort !== undefined) config.LoopbackPort = loopbackPort;
  return { kind: "login", config, timeoutMs };
}
