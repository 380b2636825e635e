import { createCommandOpener, type OpenBrowser, openSystemBrowser } from "../browser.js";
import { type DeviceCodePrompt, loginWithDeviceCode } from "../device/device-login.js";
import { login } from "../login.js";
import { renderQrCode } from "./qr-code.js";
import { failureResult, type LoginResult } from "../result.js";
import { type CliRequest, parseCliArgs, USAGE } from "./args.js";

/** Exit status of `slotgate-login`. @internal */
const EXIT = { signedIn: 0, failed: 1, usage: 2 } as const;

/** Where the CLI writes and what it reads from its process. @internal */
export interface CliIo {
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  signal: AbortSignal;
  version: string;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

/** The one JSON line: PascalCase fields so C# `JsonUtility` and friends map it directly. */
function jsonLine(result: LoginResult): string {
  return `${JSON.stringify({
    Success: result.Success,
    Jwt: result.Jwt,
    ErrorMessage: result.ErrorMessage,
    ErrorCode: result.ErrorCode,
  })}\n`;
}

/**
 * Runs `slotgate-login` and returns its exit status. Apart from `--help` and
 * `--version`, stdout receives exactly one result JSON line, on success and on every failure
 * (with `--device`, preceded by one prompt line once the code is known).
 * @internal
 */
export async function runCli(io: CliIo): Promise<number> {
  let request: CliRequest;
  let opener: OpenBrowser = openSystemBrowser;
  try {
    request = parseCliArgs(io.argv);
    const browserCommand = io.env["SLOTGATE_BROWSER"];
    if (browserCommand !== undefined && browserCommand.trim() !== "") {
      opener = createCommandOpener(browserCommand);
    }
  } catch (error) {
    io.stdout(jsonLine(failureResult(error)));
    return EXIT.usage;
  }
  if (request.kind === "help") {
    io.stdout(USAGE);
    return EXIT.signedIn;
  }
  if (request.kind === "version") {
    io.stdout(`${io.version}\n`);
    return EXIT.signedIn;
  }
  if (request.kind === "device") {
    const result = await loginWithDeviceCode(request.config, {
      signal: io.signal,
      onUserCode: (prompt: DeviceCodePrompt) => {
        io.stdout(
          `${JSON.stringify({ UserCode: prompt.UserCode, VerificationUri: prompt.VerificationUri, VerificationUriComplete: prompt.VerificationUriComplete, ExpiresIn: prompt.ExpiresIn })}\n`,
        );
        io.stderr(`slotgate-login: on your phone or computer, open ${prompt.VerificationUri} and enter ${prompt.UserCode}\n`);
        io.stderr(`${renderQrCode(prompt.VerificationUriComplete)}\n`);
      },
    });
    io.stdout(jsonLine(result));
    if (result.Success) return EXIT.signedIn;
    return result.ErrorCode === "invalid_config" ? EXIT.usage : EXIT.failed;
  }
  const result = await login(request.config, {
    timeoutMs: request.timeoutMs,
    signal: io.signal,
    openBrowser: async (url) => {
      io.stderr("slotgate-login: complete the sign-in in your browser.\n");
      await opener(url);
    },
  });
  io.stdout(jsonLine(result));
  if (result.Success) return EXIT.signedIn;
  return result.ErrorCode === "invalid_config" ? EXIT.usage : EXIT.failed;
}
