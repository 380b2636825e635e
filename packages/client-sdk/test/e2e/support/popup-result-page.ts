/**
 * The popup result page of the contract stand-in, built from the protocol's shared payload and
 * script: the same bytes the reference server and the simulated service serve, so the browser
 * suite exercises the real dual broadcast and COOP hand-off.
 */
import { POPUP_RESULT_SCRIPT, popupResultPayload } from "@slotgate/protocol";

export interface PopupResult {
  redirectUri: string;
  type: "success" | "fail";
  data: string;
  state: string;
}

export function popupResultPage(result: PopupResult): string {
  const json = JSON.stringify(popupResultPayload(result.redirectUri, result.type, result.data, result.state)).replace(/</g, "\\u003c");
  return `<!doctype html><meta charset="utf-8"><title>Slotgate</title>
<script type="application/json" id="slotgate-result">${json}</script>
<script>${POPUP_RESULT_SCRIPT}</script>`;
}
