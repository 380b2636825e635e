# Validates the login configs with the rules and messages of @slotgate/game-sdk-bridge (config.ts).
# A config is a Dictionary with the spec 4.14 names: ClientId, RedirectUri, SlotgateUrl, LoopbackPort,
# TimeoutMs. There is no client secret field: a game build is public.
extends Reference

const DEFAULT_SLOTGATE_URL = "https://auth.slotgate.io"
const LOOPBACK_HOST = "127.0.0.1"
const CALLBACK_PATH = "/callback"
const DEFAULT_TIMEOUT_MS = 120000
const LOOPBACK_EXAMPLE = "http://127.0.0.1/callback"
const SECRET_KEYS = ["ClientSecret", "clientSecret", "client_secret", "Secret", "secret"]


# { "ok": true, ...fields } or { "ok": false, "message": "..." }.
static func _invalid(message: String) -> Dictionary:
	return {"ok": false, "message": message}


static func _client_id(config: Dictionary):
	var value = config.get("ClientId")
	if typeof(value) != TYPE_STRING or value.strip_edges() == "":
		return _invalid("ClientId is required: pass the client application's public id.")
	if value.length() > 256:
		return _invalid("ClientId must be 1 to 256 printable ASCII characters without spaces.")
	for i in range(value.length()):
		var c = value.ord_at(i)
		if c < 33 or c > 126:
			return _invalid("ClientId must be 1 to 256 printable ASCII characters without spaces.")
	return value


# Splits an absolute http(s) URL into scheme, host, port, path; null when it is not one.
static func parse_url(text: String):
	var scheme_end = text.find("://")
	if scheme_end <= 0:
		return null
	var scheme = text.substr(0, scheme_end).to_lower()
	var rest = text.substr(scheme_end + 3, text.length())
	var slash = rest.find("/")
	var authority = rest if slash < 0 else rest.substr(0, slash)
	var path = "/" if slash < 0 else rest.substr(slash, rest.length())
	if authority == "":
		return null
	var userinfo = ""
	var at = authority.find_last("@")
	if at >= 0:
		userinfo = authority.substr(0, at)
		authority = authority.substr(at + 1, authority.length())
	var host = authority
	var port = -1
	var colon = authority.find_last(":")
	if colon >= 0 and authority.find_last("]") < colon:
		host = authority.substr(0, colon)
		var digits = authority.substr(colon + 1, authority.length())
		if digits == "" or not digits.is_valid_integer() or digits.to_int() > 65535 or digits.to_int() < 0:
			return null
		port = digits.to_int()
	var query = ""
	var q = path.find("?")
	if q >= 0:
		query = path.substr(q + 1, path.length())
		path = path.substr(0, q)
	var fragment = path.find("#") >= 0 or query.find("#") >= 0 or text.find("#") >= 0
	if host == "":
		return null
	return {"scheme": scheme, "host": host.to_lower(), "port": port, "path": path, "query": query, "userinfo": userinfo, "fragment": fragment}


static func _slotgate_url(config: Dictionary):
	var value = config.get("SlotgateUrl")
	if value == null or (typeof(value) == TYPE_STRING and value == ""):
		value = DEFAULT_SLOTGATE_URL
	if typeof(value) != TYPE_STRING:
		return _invalid("SlotgateUrl must be a string such as https://auth.slotgate.io.")
	var url = parse_url(value)
	if url == null:
		return _invalid("SlotgateUrl is not a valid absolute URL (expected e.g. https://auth.slotgate.io).")
	if url.userinfo != "":
		return _invalid("SlotgateUrl must not contain a user name or password.")
	if url.query != "" or url.fragment:
		return _invalid("SlotgateUrl must not have a query or fragment.")
	var dev_loopback = url.scheme == "http" and url.host in ["127.0.0.1", "localhost", "[::1]"]
	if url.scheme != "https" and not dev_loopback:
		return _invalid("SlotgateUrl must use https (plain http is allowed only for a local server on 127.0.0.1 or localhost).")
	if url.port < 0:
		url.port = 443 if url.scheme == "https" else 80
	if not url.path.ends_with("/"):
		url.path += "/"
	return url


# The port written in the redirect URI (0 = none), or an error Dictionary.
static func _redirect_port(config: Dictionary):
	var value = config.get("RedirectUri")
	if typeof(value) != TYPE_STRING or value == "":
		return _invalid("RedirectUri is required: the registered loopback URI " + LOOPBACK_EXAMPLE + ".")
	var url = parse_url(value)
	if url == null:
		return _invalid("RedirectUri is not a valid URL; expected " + LOOPBACK_EXAMPLE + ".")
	if url.scheme != "http":
		return _invalid("RedirectUri must use http on the loopback interface (RFC 8252 section 7.3), e.g. " + LOOPBACK_EXAMPLE + ".")
	if url.host == "localhost" or url.host == "[::1]":
		return _invalid(
			"RedirectUri must use the IP literal 127.0.0.1, not " + url.host + ": \"localhost\" may resolve to ::1 (IPv6) while the "
			+ "listener is on 127.0.0.1, or be remapped by the hosts file or a firewall (RFC 8252 section 8.3). Use " + LOOPBACK_EXAMPLE + " "
			+ "and register exactly that URI.")
	if url.host != LOOPBACK_HOST:
		return _invalid("RedirectUri must be a loopback URI on 127.0.0.1 (" + LOOPBACK_EXAMPLE + "); got host " + url.host + ".")
	if url.userinfo != "" or url.query != "" or url.fragment:
		return _invalid("RedirectUri must be exactly " + LOOPBACK_EXAMPLE + ", without user info, query or fragment.")
	if url.path != CALLBACK_PATH:
		return _invalid("RedirectUri must use the path /callback (" + LOOPBACK_EXAMPLE + "); got " + url.path + ".")
	return max(url.port, 0)


static func _refuse_secret(config: Dictionary):
	for key in SECRET_KEYS:
		if config.has(key):
			return _invalid("A client secret was passed. It is never accepted: a game build is public, so the secret would leak. Keep the client secret on your game backend only.")
	return null


# What both logins need: { ok, client_id, url } or { ok: false, message }.
static func _resolve_common(config, call: String) -> Dictionary:
	if typeof(config) != TYPE_DICTIONARY:
		return _invalid(call + " needs a config Dictionary with ClientId.")
	var secret = _refuse_secret(config)
	if secret != null:
		return secret
	var client_id = _client_id(config)
	if typeof(client_id) == TYPE_DICTIONARY:
		return client_id
	var url = _slotgate_url(config)
	if not url.has("scheme"):
		return url
	return {"ok": true, "client_id": client_id, "url": url}


# The loopback login's config: { ok, client_id, url, port (0: pick one), timeout_ms } or { ok: false, message }.
static func resolve_login(config) -> Dictionary:
	var resolved = _resolve_common(config, "login()")
	if not resolved.ok:
		return resolved
	var redirect_port = _redirect_port(config)
	if typeof(redirect_port) == TYPE_DICTIONARY:
		return redirect_port
	var loopback_port = config.get("LoopbackPort", 0)
	if typeof(loopback_port) == TYPE_REAL and loopback_port == int(loopback_port):
		loopback_port = int(loopback_port)
	if typeof(loopback_port) != TYPE_INT or loopback_port < 0 or loopback_port > 65535:
		return _invalid("LoopbackPort must be an integer from 0 to 65535 (0 means not set).")
	if redirect_port > 0 and loopback_port > 0 and redirect_port != loopback_port:
		return _invalid("LoopbackPort (%d) differs from the port in RedirectUri (%d); they must agree, or leave one out." % [loopback_port, redirect_port])
	# 0: no port named, so the login picks a free one (a public client's loopback URI accepts any port).
	var port = redirect_port if redirect_port > 0 else loopback_port
	var timeout_ms = config.get("TimeoutMs", 0)
	if typeof(timeout_ms) == TYPE_REAL and timeout_ms == int(timeout_ms):
		timeout_ms = int(timeout_ms)
	if typeof(timeout_ms) != TYPE_INT or timeout_ms < 0:
		return _invalid("TimeoutMs must be an integer from 1 to 2147483647 (0 means the default, 120000).")
	resolved.port = port
	resolved.timeout_ms = timeout_ms if timeout_ms > 0 else DEFAULT_TIMEOUT_MS
	return resolved


# The device login's config: { ok, client_id, url } or { ok: false, message }.
static func resolve_device(config) -> Dictionary:
	return _resolve_common(config, "login_with_device_code()")
