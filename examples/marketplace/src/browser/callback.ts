// The popup's redirect page: relays the login result to the opener when the service could not post it directly.
import { handleLoginCallback } from "@slotgate/client-sdk";

handleLoginCallback();
