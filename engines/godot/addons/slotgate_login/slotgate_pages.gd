# The pages the loopback listener shows the player: byte for byte those of @slotgate/game-sdk-bridge's
# loopback/pages.ts (same HTML, same headers, same hash-pinned CSP).
extends Reference

# Removes ?jwt=...&state=... from the address bar and the history entry.
const SCRUB_SCRIPT = "history.replaceState(null, \"\", \"/callback\");"
const STYLE = "body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;color:#1b1b1f}h1{font-size:1.5rem}.ok{color:#0a7a3d}.fail{color:#b3261e}"


static func _sha256(text: String) -> String:
	return "'sha256-" + Marshalls.raw_to_base64(text.sha256_buffer()) + "'"


# Headers of every page, in order: nothing cached, nothing loaded, no referrer.
static func headers() -> Array:
	return [
		["Content-Type", "text/html; charset=utf-8"],
		["Cache-Control", "no-store"],
		["Referrer-Policy", "no-referrer"],
		["X-Content-Type-Options", "nosniff"],
		["X-Frame-Options", "DENY"],
		["Content-Security-Policy", "default-src 'none'; script-src " + _sha256(SCRUB_SCRIPT) + "; style-src " + _sha256(STYLE) + "; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"],
		["Connection", "close"],
	]


static func _escape_html(text: String) -> String:
	var escaped = ""
	for i in range(text.length()):
		var c = text[i]
		escaped += "&#%d;" % text.ord_at(i) if c in ["&", "<", ">", "\"", "'"] else c
	return escaped


static func _page(title: String, cls: String, body: String) -> String:
	return ("<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width\">"
		+ "<title>" + _escape_html(title) + "</title><style>" + STYLE + "</style><script>" + SCRUB_SCRIPT + "</script></head>"
		+ "<body><h1 class=\"" + cls + "\">" + _escape_html(title) + "</h1>" + body + "</body></html>")


static func success() -> String:
	return _page("Signed in to Slotgate", "ok", "<p>You are signed in. You can close this tab and return to the game.</p>")


static func failure(message: String) -> String:
	return _page("Sign-in failed", "fail", "<p>" + _escape_html(message) + "</p><p>Return to the game and try again.</p>")


static func not_found() -> String:
	return _page("Not found", "fail", "<p>This address only receives the Slotgate sign-in redirect.</p>")
