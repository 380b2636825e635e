// The popup's redirect page: relays the wallet window's or the login's result to the opener when the service could not
// post it directly (each handler acts only on its own kind of result).
import { handleLoginCallback } from "@slotgate/client-sdk";
import { handleWalletCallback } from "@slotgate/client-sdk/wallet";

handleWalletCallback() || handleLoginCallback();
