// The popup's redirect page. The service normally answers the opener with postMessage and this page
// is never shown; when the app page sends Cross-Origin-Opener-Policy, it relays the login's or the wallet window's
// result instead.
import { handleLoginCallback } from "@slotgate/client-sdk";
import { handleWalletCallback } from "@slotgate/client-sdk/wallet";

handleWalletCallback() || handleLoginCallback();
