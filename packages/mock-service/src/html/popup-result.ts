import { POPUP_RESULT_SCRIPT, type PopupResultPayload, popupResultPayload } from "@slotgate/protocol";
import { scriptJson } from "./escape.js";

/**
 * A popup result page around a payload of the protocol (`popupResultPayload`, `walletResultPayload`) and its
 * shared script (the same bytes the reference server serves): the messages to `window.opener` at `targetOrigin`
 * and on the payload's BroadcastChannel, or, when a Cross-Origin-Opener-Policy severed the opener, a hand-off to
 * the registered redirect page in the fragment.
 */
export function resultPage(title: string, payload: PopupResultPayload): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title></head>
<body>
<p>You can close this window.</p>
<script type="application/json" id="slotgate-result">${scriptJson(payload)}</script>
<script>${POPUP_RESULT_SCRIPT}</script>
</body>
</html>`;
}

/**
 * The login popup's result page: the dual broadcast. `targetOrigin` overrides the payload's only for the
 * `popupWildcardOrigin` fault.
 */
export function popupResultPage(args: { targetOrigin: string; redirectUri: string; type: "success" | "fail"; data: string; state: string }): string {
  return resultPage("Slotgate — signing in", { ...popupResultPayload(args.redirectUri, args.type, args.data, args.state), targetOrigin: args.targetOrigin });
}
