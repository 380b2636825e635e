import { type DeviceLoginConfig, resolveDeviceLoginConfig } from "../config.js";
import { GameSdkBridgeError } from "../errors.js";
import { isJwtShaped } from "../loopback/callback.js";
import { cancelled, postForm } from "../post-form.js";
import { failureResult, type LoginResult, successResult } from "../result.js";

const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code";
const SLOW_DOWN_SECONDS = 5;

/**
 * What to show the player: the code and where to enter it. Both casings, like {@link LoginResult}.
 *
 * @example
 * ```ts
 * onUserCode: (p) => showOnScreen(`Go to ${p.VerificationUri} and enter ${p.UserCode}`)
 * ```
 */
export interface DeviceCodePrompt {
  /** The code to type on the verification page, e.g. `BDFH-JKLM`. */
  readonly UserCode: string;
  /** The verification page, e.g. `https://auth.slotgate.io/oauth/device`. */
  readonly VerificationUri: string;
  /** The verification page with the code filled in: put it in a QR code. */
  readonly VerificationUriComplete: string;
  /** Seconds until the code expires. */
  readonly ExpiresIn: number;
  /** Same as `UserCode`. */
  readonly userCode: string;
  /** Same as `VerificationUri`. */
  readonly verificationUri: string;
  /** Same as `VerificationUriComplete`. */
  readonly verificationUriComplete: string;
  /** Same as `ExpiresIn`. */
  readonly expiresIn: number;
}

/**
 * How {@link loginWithDeviceCode} runs.
 *
 * @example
 * ```ts
 * const result = await loginWithDeviceCode(config, { onUserCode: (p) => console.log(p.UserCode), signal });
 * ```
 */
export interface DeviceLoginOptions {
  /** Called once with the code and URL to show the player (on the TV, or as a QR code). Required. */
  onUserCode: (prompt: DeviceCodePrompt) => void | Promise<void>;
  /** Aborting it ends the login with `cancelled`. */
  signal?: AbortSignal;
  /**
   * `fetch` used for the two endpoints.
   * @default globalThis.fetch
   */
  fetch?: typeof fetch;
}

function wait(seconds: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, seconds * 1000);
    const onAbort = () => {
      clearTimeout(timer);
      reject(cancelled());
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

function prompt(body: Record<string, unknown>): DeviceCodePrompt & { deviceCode: string; interval: number } {
  const { device_code, user_code, verification_uri, verification_uri_complete, expires_in, interval } = body;
  if (typeof device_code !== "string" || typeof user_code !== "string" || typeof verification_uri !== "string" || typeof expires_in !== "number") {
    throw new GameSdkBridgeError("network_error", "The device authorization answer lacks device_code, user_code, verification_uri or expires_in.");
  }
  const complete = typeof verification_uri_complete === "string" ? verification_uri_complete : verification_uri;
  return {
    deviceCode: device_code,
    interval: typeof interval === "number" && interval > 0 ? interval : 5,
    UserCode: user_code,
    VerificationUri: verification_uri,
    VerificationUriComplete: complete,
    ExpiresIn: expires_in,
    userCode: user_code,
    verificationUri: verification_uri,
    verificationUriComplete: complete,
    expiresIn: expires_in,
  };
}

async function runDeviceLogin(config: DeviceLoginConfig, options: DeviceLoginOptions): Promise<string> {
  const { clientId, slotgateUrl } = resolveDeviceLoginConfig(config);
  if (typeof options?.onUserCode !== "function") {
    throw new GameSdkBridgeError("invalid_config", "onUserCode is required: a function that shows the player the code and URL.");
  }
  const fetchFn = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const signal = options.signal;
  if (signal?.aborted) throw cancelled();

  const started = await postForm(fetchFn, new URL("oauth/device_authorization", slotgateUrl), { client_id: clientId }, signal);
  if (!started.ok) {
    const code = started.error === "invalid_client" || started.error === "unauthorized_client" ? "invalid_config" : "authorization_error";
    throw new GameSdkBridgeError(code, `Slotgate refused the device login (${started.error ?? "error"}): ${started.description ?? "no description"}`);
  }
  const { deviceCode, interval: firstInterval, ...forPlayer } = prompt(started.body);
  await options.onUserCode(Object.freeze(forPlayer));

  let interval = firstInterval;
  const tokenUrl = new URL("oauth/token", slotgateUrl);
  for (;;) {
    await wait(interval, signal);
    const polled = await postForm(fetchFn, tokenUrl, { grant_type: DEVICE_GRANT, device_code: deviceCode, client_id: clientId }, signal);
    if (polled.ok) {
      const token = polled.body["access_token"];
      if (!isJwtShaped(token)) throw new GameSdkBridgeError("missing_jwt", "The token answer carried no well-formed JWT.");
      return token;
    }
    switch (polled.error) {
      case "authorization_pending":
        continue;
      case "slow_down":
        interval += SLOW_DOWN_SECONDS;
        continue;
      case "access_denied":
        throw new GameSdkBridgeError("access_denied", "The player denied the sign-in on the verification page.");
      case "expired_token":
        throw new GameSdkBridgeError("code_expired", "The code expired before the player entered it. Start the login again.");
      default:
        throw new GameSdkBridgeError(
          "authorization_error",
          `Slotgate ended the device login (${polled.error ?? "error"}): ${polled.description ?? "no description"}`,
        );
    }
  }
}

/**
 * Signs a player in on a device without a browser or keyboard (console, TV) with the device
 * authorization grant (RFC 8628): asks Slotgate for a code, hands it to `onUserCode` to show, then
 * polls until the player has entered the code at the verification page on a phone or computer,
 * signed in and approved. The result is the same as {@link login}'s: the player's JWT for the game backend.
 *
 * The client must be registered with the grant `urn:ietf:params:oauth:grant-type:device_code`.
 * It never rejects: denial (`access_denied`), expiry (`code_expired`), cancel, network errors and a
 * bad config resolve a result with `Success: false`.
 *
 * @param config - `ClientId` and optional `SlotgateUrl` (or camelCase).
 * @param options - `onUserCode` (required), AbortSignal and fetch.
 * @example
 * ```ts
 * import { loginWithDeviceCode } from "@slotgate/game-sdk-bridge";
 *
 * const result = await loginWithDeviceCode(
 *   { ClientId: "my-console-game" },
 *   { onUserCode: (p) => showOnTv(`On your phone, open ${p.VerificationUri} and enter ${p.UserCode}`) },
 * );
 * if (result.Success) await sendToGameBackend(result.Jwt);
 * ```
 */
export async function loginWithDeviceCode(config: DeviceLoginConfig, options: DeviceLoginOptions): Promise<LoginResult> {
  try {
    return successResult(await runDeviceLogin(config, options));
  } catch (error) {
    return failureResult(error);
  }
}
