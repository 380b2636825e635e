# What one redirect to the loopback /callback means for the login: the rules and messages of
# @slotgate/game-sdk-bridge's loopback/callback.ts (state first, in constant time; then error; then one code,
# or from a confidential client's redirect one jwt).
extends Reference

const Codes = preload("slotgate_error_codes.gd")
const MAX_JWT_LENGTH = 16384
const MAX_CODE_LENGTH = 512


# Whether a value looks like a compact JWT (three base64url segments, at most 16 KiB); the game backend verifies it.
static func is_jwt_shaped(value) -> bool:
	if typeof(value) != TYPE_STRING or value.length() > MAX_JWT_LENGTH:
		return false
	var parts = value.split(".", true)
	if parts.size() != 3:
		return false
	for part in parts:
		if part == "":
			return false
		for i in range(part.length()):
			var c = part.ord_at(i)
			var ok = (c >= 65 and c <= 90) or (c >= 97 and c <= 122) or (c >= 48 and c <= 57) or c == 45 or c == 95
			if not ok:
				return false
	return true


# Whether a value looks like an authorization code: 1 to 512 unreserved characters (Slotgate's are base64url).
static func is_code_shaped(value) -> bool:
	if typeof(value) != TYPE_STRING or value == "" or value.length() > MAX_CODE_LENGTH:
		return false
	for i in range(value.length()):
		var c = value.ord_at(i)
		var ok = (c >= 65 and c <= 90) or (c >= 97 and c <= 122) or (c >= 48 and c <= 57) or c == 45 or c == 46 or c == 95 or c == 126
		if not ok:
			return false
	return true


# application/x-www-form-urlencoded query -> { name: [values...] }.
static func parse_query(query: String) -> Dictionary:
	var result = {}
	for pair in query.split("&", false):
		var eq = pair.find("=")
		var name = (pair if eq < 0 else pair.substr(0, eq)).replace("+", " ").percent_decode()
		var value = "" if eq < 0 else pair.substr(eq + 1, pair.length()).replace("+", " ").percent_decode()
		if not result.has(name):
			result[name] = []
		result[name].append(value)
	return result


static func _same_state(received: String, expected: String) -> bool:
	var a = received.to_utf8()
	var b = expected.to_utf8()
	if a.size() != b.size():
		return false
	var diff = 0
	for i in range(a.size()):
		diff |= a[i] ^ b[i]
	return diff == 0


# Keeps server-provided text printable and short before it reaches a page or a message.
static func _clean(text, max_length: int) -> String:
	if text == null:
		return ""
	var printable = ""
	for i in range(text.length()):
		var c = text.ord_at(i)
		printable += " " if c < 32 or (c >= 127 and c <= 159) else text[i]
	printable = printable.strip_edges()
	return printable.substr(0, max_length) + "..." if printable.length() > max_length else printable


static func _fail(code: String, message: String) -> Dictionary:
	return {"ok": false, "code": code, "message": message}


# { ok: true, code } (to redeem with the PKCE verifier), { ok: true, jwt } or { ok: false, code, message }.
static func interpret(raw_query: String, expected_state: String) -> Dictionary:
	var query = parse_query(raw_query)
	var states = query.get("state", [])
	if states.size() != 1 or not _same_state(states[0], expected_state):
		return _fail(Codes.STATE_MISMATCH,
			"The sign-in response does not belong to this login attempt (missing or wrong state), so it was refused to "
			+ "prevent cross-site request forgery. Start the login again.")
	if query.has("error"):
		var code = _clean(query["error"][0], 64)
		if code == "":
			code = "unknown_error"
		var description = _clean(query["error_description"][0] if query.has("error_description") else null, 300)
		var detail = code if description == "" else code + ": " + description
		if code == "access_denied":
			return _fail(Codes.ACCESS_DENIED, "Sign-in was declined (" + detail + ").")
		return _fail(Codes.AUTHORIZATION_ERROR, "Slotgate reported an error during sign-in (" + detail + ").")
	var codes = query.get("code", [])
	var jwts = query.get("jwt", [])
	if codes.size() > 0 and jwts.size() > 0:
		return _fail(Codes.MISSING_JWT, "The sign-in response carried both a code and a jwt; it was refused.")
	if codes.size() > 0:
		if codes.size() > 1 or not is_code_shaped(codes[0]):
			return _fail(Codes.MISSING_JWT, "The sign-in response did not carry exactly one well-formed code.")
		return {"ok": true, "code": codes[0]}
	if jwts.size() == 0 or jwts[0] == "":
		return _fail(Codes.MISSING_JWT, "The sign-in response carried neither a code nor a jwt.")
	if jwts.size() > 1 or not is_jwt_shaped(jwts[0]):
		return _fail(Codes.MISSING_JWT, "The sign-in response did not carry exactly one well-formed jwt.")
	return {"ok": true, "jwt": jwts[0]}
