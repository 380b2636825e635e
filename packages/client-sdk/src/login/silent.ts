import { SlotgateError } from "../errors.js";
import type { ResolvedOptions } from "../options.js";
import { cleanReason, readLoginMessage } from "./message.js";
import { authorizeUrl } from "./popup.js";
import { randomState } from "./state.js";

/**
 * Silent renewal: loads `{base}/oauth/authorize?…&display=popup&prompt=none` in a hidden iframe and waits for
 * the service page's message to this window (origin = service, source = that iframe, its `state`). Settles
 * once and removes the iframe and the listener on every path: the JWT, `login_failed` (`login_required` when
 * the browser has no service session for this client) or `login_timeout`. @internal
 */
export function renewInFrame(options: ResolvedOptions, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const state = randomState();
    const frame = document.createElement("iframe");
    const listeners = new AbortController();
    const settle = (error: SlotgateError | undefined, jwt?: string): void => {
      listeners.abort();
      clearTimeout(timer);
      frame.remove();
      if (error) reject(error);
      else resolve(jwt as string);
    };
    const timer = setTimeout(() => settle(new SlotgateError("login_timeout")), timeoutMs);
    window.addEventListener(
      "message",
      (event) => {
        const message = event.origin === options.origin && event.source === frame.contentWindow ? readLoginMessage(event.data, state) : undefined;
        if (message?.type === "success") settle(undefined, message.data);
        else if (message) settle(new SlotgateError("login_failed", cleanReason(message.data)));
      },
      { signal: listeners.signal },
    );
    frame.hidden = true;
    frame.src = authorizeUrl(options, state, { display: "popup", prompt: "none" });
    document.body.appendChild(frame);
  });
}
