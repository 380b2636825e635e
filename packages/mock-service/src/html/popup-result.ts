import { POPUP_RESULT_SCRIPT, popupResultPayload } from "@slotgate/protocol";
import { scriptJson } from "./escape.js";

/**
 * The popup result page, built from the protocol's shared payload and script (the same bytes the
 * reference server serves): the dual broadcast to `window.opener` at `targetOrigin`, or, when a
 * Cross-Origin-Opener-Policy severed the opener, a hand-off to the registered redirect page.
 * `targetOrigin` overrides the payload's only for the `popupWildcardOrigin` fault.
 */
export function popupResultPage(args: { targetOrigin: string; redirectUri: string; type: "success" | "fail"; data: string; state: string }): string {
  const payload = { ...popupResultPayload(args.redirectUri, args.type, args.data, args.state), targetOrigin: args.targetOrigin };
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Slotgate — signing in</title></head>
<body>
<p>You can close this window.</p>
<script type="application/json" id="slotgate-result">${scriptJson(payload)}</script>
<script>${POPUP_RESULT_SCRIPT}</script>
</body>
</html>`;
}
