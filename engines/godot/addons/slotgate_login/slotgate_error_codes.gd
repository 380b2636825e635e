# The error codes of the add-on's results (`ErrorCode`), written once: every script of the add-on uses these
# constants. They are the slotgate-login CLI's (`GameSdkBridgeErrorCode` of @slotgate/game-sdk-bridge), in its order,
# and engines/godot/test/godot-error-codes.test.ts pins them to it. A game compares through SlotgateLogin:
#   if result.ErrorCode == SlotgateLogin.Codes.CODE_EXPIRED: show_new_code()
extends Reference

## A config value is missing or wrong (not a loopback redirect URI, a client secret, a bad port, a client Slotgate
## does not know as public or without the device grant).
const INVALID_CONFIG = "invalid_config"
## Another program already listens on the loopback port.
const PORT_IN_USE = "port_in_use"
## The loopback listener could not start for another reason.
const LISTEN_FAILED = "listen_failed"
## The system browser (or the `open_browser` FuncRef) could not be started.
const BROWSER_OPEN_FAILED = "browser_open_failed"
## The redirect's `state` was missing or did not match this login attempt.
const STATE_MISMATCH = "state_mismatch"
## The redirect carried neither one well-formed `code` nor one `jwt`, or the token answer no JWT.
const MISSING_JWT = "missing_jwt"
## The player declined on the consent or verification page.
const ACCESS_DENIED = "access_denied"
## Slotgate redirected back with another OAuth error, or refused to redeem the code.
const AUTHORIZATION_ERROR = "authorization_error"
## No redirect arrived within `TimeoutMs`.
const TIMEOUT = "timeout"
## Device login: the player did not enter the code before it expired.
const CODE_EXPIRED = "code_expired"
## The Slotgate service could not be reached or answered without a JSON body.
const NETWORK_ERROR = "network_error"
## `cancel()` ended the login.
const CANCELLED = "cancelled"
## An unexpected fault inside the add-on (please report it).
const INTERNAL_ERROR = "internal_error"

## Every code above, in the CLI's order.
const ALL = [
	INVALID_CONFIG,
	PORT_IN_USE,
	LISTEN_FAILED,
	BROWSER_OPEN_FAILED,
	STATE_MISMATCH,
	MISSING_JWT,
	ACCESS_DENIED,
	AUTHORIZATION_ERROR,
	TIMEOUT,
	CODE_EXPIRED,
	NETWORK_ERROR,
	CANCELLED,
	INTERNAL_ERROR,
]
