# Slotgate login for Godot 3 (3.2 and newer 3.x), in GDScript with no helper process: the loopback login
# through the system browser (RFC 8252, TCP_Server on 127.0.0.1, PKCE S256 and state, the code redeemed with the
# verifier) and the device login (RFC 8628, HTTPClient).
# Results are the slotgate-login CLI's: { Success, Jwt, ErrorMessage, ErrorCode } with the same codes (Codes).
#
#   var slotgate = SlotgateLogin.new()
#   add_child(slotgate)
#   var result = yield(slotgate.login({"ClientId": "my-game", "RedirectUri": "http://127.0.0.1/callback"}), "completed")
#   if result.Success: send_to_game_backend(result.Jwt)
class_name SlotgateLogin
extends Node

## Emitted by login_with_device_code() with { UserCode, VerificationUri, VerificationUriComplete, ExpiresIn }.
signal device_prompt(prompt)
## Emitted with the result of every login, as login() and login_with_device_code() return it.
signal login_finished(result)

## The error codes of every result (`ErrorCode`): `SlotgateLogin.Codes.CODE_EXPIRED` and the rest, `Codes.ALL`.
const Codes = preload("slotgate_error_codes.gd")
const Config = preload("slotgate_config.gd")
const Callback = preload("slotgate_callback.gd")
const Pages = preload("slotgate_pages.gd")
const DEVICE_GRANT = "urn:ietf:params:oauth:grant-type:device_code"
const SLOW_DOWN_SECONDS = 5
const REQUEST_READ_TIMEOUT_MS = 10000
# Godot 3's TCP_Server cannot report the port the system picked (get_local_port() is Godot 4 only), so a login
# without a fixed port tries random ports of the dynamic range (RFC 6335) until one is free.
const DYNAMIC_PORT_FIRST = 49152
const DYNAMIC_PORT_COUNT = 16384
const PORT_TRIES = 32

## Shows the authorize URL to the player; default OS.shell_open. Tests and automation set their own.
var open_browser: FuncRef = null

var _cancelled = false


## Ends the running login with `cancelled`.
func cancel() -> void:
	_cancelled = true


static func result_success(jwt: String) -> Dictionary:
	return {"Success": true, "Jwt": jwt, "ErrorMessage": null, "ErrorCode": null}


static func result_failure(code: String, message: String) -> Dictionary:
	return {"Success": false, "Jwt": null, "ErrorMessage": message, "ErrorCode": code}


func _finish(result: Dictionary) -> Dictionary:
	emit_signal("login_finished", result)
	return result


func _frame() -> void:
	yield(get_tree(), "idle_frame")


static func _base64url(bytes: PoolByteArray) -> String:
	return Marshalls.raw_to_base64(bytes).replace("=", "").replace("+", "-").replace("/", "_")


## A fresh CSRF state: 32 bytes from the operating system's CSPRNG, base64url (43 characters).
static func create_state() -> String:
	return _base64url(Crypto.new().generate_random_bytes(32))


## A fresh PKCE pair (RFC 7636): { verifier: 32 CSPRNG bytes base64url, challenge: BASE64URL(SHA-256(verifier)) }.
static func create_pkce() -> Dictionary:
	var verifier = create_state()
	return {"verifier": verifier, "challenge": _base64url(verifier.sha256_buffer())}


static func _authorize_url(url: Dictionary, client_id: String, redirect_uri: String, state: String, challenge: String) -> String:
	var port = "" if (url.scheme == "https" and url.port == 443) or (url.scheme == "http" and url.port == 80) else ":%d" % url.port
	return (url.scheme + "://" + url.host + port + url.path + "oauth/authorize"
		+ "?client_id=" + client_id.percent_encode()
		+ "&redirect_uri=" + redirect_uri.percent_encode()
		+ "&response_type=code&state=" + state
		+ "&code_challenge=" + challenge + "&code_challenge_method=S256")


# Listens on 127.0.0.1: on `port`, or (0) on a random free port of the dynamic range. { server, port } or { failure }.
static func _listen(port: int) -> Dictionary:
	var server = TCP_Server.new()
	if port > 0:
		var listened = server.listen(port, Config.LOOPBACK_HOST)
		if listened == OK:
			return {"server": server, "port": port}
		if listened == ERR_ALREADY_IN_USE or listened == ERR_UNAVAILABLE:
			return {"failure": result_failure(Codes.PORT_IN_USE, "Port %d on 127.0.0.1 is already in use by another program. Close it, or register another loopback redirect URI and use its port." % port)}
		return {"failure": result_failure(Codes.LISTEN_FAILED, "Cannot listen on 127.0.0.1:%d: error %d." % [port, listened])}
	var random = Crypto.new()
	for _try in range(PORT_TRIES):
		var bytes = random.generate_random_bytes(2)
		var candidate = DYNAMIC_PORT_FIRST + ((bytes[0] << 8) | bytes[1]) % DYNAMIC_PORT_COUNT
		if server.listen(candidate, Config.LOOPBACK_HOST) == OK:
			return {"server": server, "port": candidate}
	return {"failure": result_failure(Codes.LISTEN_FAILED, "Cannot listen on 127.0.0.1: %d random ports of %d-%d were all in use." % [PORT_TRIES, DYNAMIC_PORT_FIRST, DYNAMIC_PORT_FIRST + DYNAMIC_PORT_COUNT - 1])}


## Signs the player in through the system browser and a loopback redirect (RFC 8252) with PKCE S256 and state.
## A coroutine: `var result = yield(slotgate.login(config), "completed")`. Never fails: every outcome is a result.
## config: ClientId, RedirectUri (registered: http://127.0.0.1/callback for a public client, any port; or
## http://127.0.0.1:<port>/callback for that fixed port), SlotgateUrl, LoopbackPort, TimeoutMs.
func login(config: Dictionary) -> Dictionary:
	yield(get_tree(), "idle_frame")
	_cancelled = false
	var resolved = Config.resolve_login(config)
	if not resolved.ok:
		return _finish(result_failure(Codes.INVALID_CONFIG, resolved.message))
	var listening = _listen(resolved.port)
	if listening.has("failure"):
		return _finish(listening.failure)
	var server: TCP_Server = listening.server
	var state = create_state()
	var pkce = create_pkce()
	var redirect_uri = "http://127.0.0.1:%d/callback" % listening.port
	var authorize = _authorize_url(resolved.url, resolved.client_id, redirect_uri, state, pkce.challenge)
	var opened = OK
	if open_browser != null:
		opened = open_browser.call_func(authorize)
	else:
		opened = OS.shell_open(authorize)
	if opened != OK and opened != null:
		server.stop()
		return _finish(result_failure(Codes.BROWSER_OPEN_FAILED, "The browser could not be opened for sign-in."))
	var allowed_host = "127.0.0.1:%d" % listening.port
	var deadline = OS.get_ticks_msec() + resolved.timeout_ms
	var late = "No sign-in arrived within %s s. Start the login again." % _seconds(resolved.timeout_ms)
	var peers = []
	var outcome = null
	while outcome == null:
		var stopped = _stopped(deadline, late)
		if stopped != null:
			outcome = stopped
			break
		while server.is_connection_available():
			peers.append({"peer": server.take_connection(), "head": PoolByteArray(), "since": OS.get_ticks_msec()})
		# Each connection on its own: a browser's idle pre-connection must not hold up the redirect.
		for entry in peers.duplicate():
			var head = _read_head(entry)
			if head == null:
				continue
			peers.erase(entry)
			if head == "":
				entry.peer.disconnect_from_host()
				continue
			var decided = _decisive(entry.peer, head, allowed_host, state)
			if decided == null:
				continue
			if decided.ok and decided.has("code"):
				# The page waits for the redemption, so it tells the truth.
				decided = yield(_redeem(resolved, decided.code, redirect_uri, pkce.verifier, deadline, late), "completed")
			if decided.ok:
				_send(entry.peer, 200, Pages.success(), false)
			elif decided.code == Codes.CANCELLED or decided.code == Codes.TIMEOUT:
				entry.peer.disconnect_from_host()
			else:
				_send(entry.peer, 400, Pages.failure(decided.message), false)
			outcome = decided
			break
		yield(get_tree(), "idle_frame")
	for entry in peers:
		entry.peer.disconnect_from_host()
	server.stop()
	if outcome.ok:
		return _finish(result_success(outcome.jwt))
	return _finish(result_failure(outcome.code, outcome.message))


static func _seconds(ms: int) -> String:
	return str(ms / 1000) if ms % 1000 == 0 else str(ms / 1000.0)


# The request head once complete (without the blank line), "" to drop the connection, null to wait for more.
func _read_head(entry: Dictionary):
	var peer: StreamPeerTCP = entry.peer
	if peer.get_status() != StreamPeerTCP.STATUS_CONNECTED or OS.get_ticks_msec() - entry.since > REQUEST_READ_TIMEOUT_MS or entry.head.size() > 24576:
		return ""
	var available = peer.get_available_bytes()
	if available > 0:
		var read = peer.get_partial_data(available)
		if read[0] == OK:
			# PoolByteArray is a value: append to the copy, then store it back.
			var head: PoolByteArray = entry.head
			head.append_array(read[1])
			entry.head = head
	var text = entry.head.get_string_from_ascii()
	var end = text.find("\r\n\r\n")
	return null if end < 0 else text.substr(0, end)


# Answers a request that does not decide the login (404/405) and returns null; the first GET /callback with our Host
# decides it: returns its interpretation (Callback.interpret), unanswered yet.
func _decisive(peer: StreamPeerTCP, head: String, allowed_host: String, state: String):
	var lines = head.split("\r\n")
	var request_line = lines[0].split(" ")
	var host = null
	for i in range(1, lines.size()):
		var colon = lines[i].find(":")
		if colon > 0 and lines[i].substr(0, colon).strip_edges().to_lower() == "host":
			host = lines[i].substr(colon + 1, lines[i].length()).strip_edges()
	var method = request_line[0] if request_line.size() == 3 else null
	var target = request_line[1] if request_line.size() == 3 else ""
	var q = target.find("?")
	var path = target if q < 0 else target.substr(0, q)
	var query = "" if q < 0 else target.substr(q + 1, target.length())
	if method == null or host != allowed_host or path != Config.CALLBACK_PATH:
		_send(peer, 404, Pages.not_found(), false)
		return null
	if method != "GET":
		_send(peer, 405, Pages.not_found(), true)
		return null
	return Callback.interpret(query, state)


# The login's end if it was cancelled or ran out of time, else null.
func _stopped(deadline: int, late: String):
	if _cancelled:
		return {"ok": false, "code": Codes.CANCELLED, "message": "The login was cancelled."}
	if deadline > 0 and OS.get_ticks_msec() >= deadline:
		return {"ok": false, "code": Codes.TIMEOUT, "message": late}
	return null


# Redeems the redirect's code at /oauth/token as a public client (RFC 8252 section 8.4): client_id and the PKCE
# code_verifier, no secret. { ok: true, jwt } or { ok: false, code, message }: the rules and messages of
# @slotgate/game-sdk-bridge's loopback/code-exchange.ts.
func _redeem(resolved: Dictionary, code: String, redirect_uri: String, verifier: String, deadline: int, late: String) -> Dictionary:
	var form = ("grant_type=authorization_code&code=" + code.percent_encode() + "&redirect_uri=" + redirect_uri.percent_encode()
		+ "&client_id=" + resolved.client_id.percent_encode() + "&code_verifier=" + verifier)
	var answer = yield(_post_form(resolved.url, "oauth/token", form, deadline, late), "completed")
	if answer.has("failure"):
		return {"ok": false, "code": answer.failure.ErrorCode, "message": answer.failure.ErrorMessage}
	if answer.ok:
		var token = answer.body.get("access_token")
		if not Callback.is_jwt_shaped(token):
			return {"ok": false, "code": Codes.MISSING_JWT, "message": "The token answer carried no well-formed JWT."}
		return {"ok": true, "jwt": token}
	var error = answer.body.get("error")
	var detail = "(%s): %s" % [_text(error, "error"), _text(answer.body.get("error_description", answer.body.get("message")), "no description")]
	if error in ["invalid_client", "unauthorized_client", "redirect_uri_mismatch"]:
		var message = ("Slotgate refused to redeem the sign-in code for this client " + detail
			+ ". Register the game as a public client (no secret, loopback redirect URI http://127.0.0.1/callback).")
		return {"ok": false, "code": Codes.INVALID_CONFIG, "message": message}
	return {"ok": false, "code": Codes.AUTHORIZATION_ERROR, "message": "Slotgate refused the sign-in code " + detail}


static func _send(peer: StreamPeerTCP, status: int, html: String, allow_get: bool) -> void:
	var body = html.to_utf8()
	var reasons = {200: "OK", 400: "Bad Request", 404: "Not Found", 405: "Method Not Allowed"}
	var head = "HTTP/1.1 %d %s\r\n" % [status, reasons[status]]
	for header in Pages.headers():
		head += header[0] + ": " + header[1] + "\r\n"
	if allow_get:
		head += "Allow: GET\r\n"
	head += "Content-Length: %d\r\n\r\n" % body.size()
	peer.put_data(head.to_ascii())
	peer.put_data(body)
	peer.disconnect_from_host()


## Device login for consoles and TVs (RFC 8628). A coroutine like login(); `device_prompt` is emitted with the code
## to show. The client must be registered with the grant urn:ietf:params:oauth:grant-type:device_code.
## config: ClientId, SlotgateUrl.
func login_with_device_code(config: Dictionary) -> Dictionary:
	yield(get_tree(), "idle_frame")
	_cancelled = false
	var resolved = Config.resolve_device(config)
	if not resolved.ok:
		return _finish(result_failure(Codes.INVALID_CONFIG, resolved.message))
	var url = resolved.url
	var started = yield(_post_form(url, "oauth/device_authorization", "client_id=" + resolved.client_id.percent_encode()), "completed")
	if started.has("failure"):
		return _finish(started.failure)
	if not started.ok:
		var code = Codes.INVALID_CONFIG if started.body.get("error") in ["invalid_client", "unauthorized_client"] else Codes.AUTHORIZATION_ERROR
		return _finish(result_failure(code, "Slotgate refused the device login (%s): %s" % [_text(started.body.get("error"), "error"), _text(started.body.get("error_description", started.body.get("message")), "no description")]))
	var body = started.body
	for key in ["device_code", "user_code", "verification_uri"]:
		if typeof(body.get(key)) != TYPE_STRING:
			return _finish(result_failure(Codes.NETWORK_ERROR, "The device authorization answer lacks device_code, user_code, verification_uri or expires_in."))
	if typeof(body.get("expires_in")) != TYPE_REAL and typeof(body.get("expires_in")) != TYPE_INT:
		return _finish(result_failure(Codes.NETWORK_ERROR, "The device authorization answer lacks device_code, user_code, verification_uri or expires_in."))
	var complete = body.get("verification_uri_complete")
	emit_signal("device_prompt", {
		"UserCode": body.user_code,
		"VerificationUri": body.verification_uri,
		"VerificationUriComplete": complete if typeof(complete) == TYPE_STRING else body.verification_uri,
		"ExpiresIn": int(body.expires_in),
	})
	var interval = int(body.get("interval")) if typeof(body.get("interval")) in [TYPE_REAL, TYPE_INT] and body.get("interval") > 0 else 5
	var poll = "grant_type=" + DEVICE_GRANT.percent_encode() + "&device_code=" + str(body.device_code).percent_encode() + "&client_id=" + resolved.client_id.percent_encode()
	while true:
		var waited_until = OS.get_ticks_msec() + interval * 1000
		while OS.get_ticks_msec() < waited_until:
			if _cancelled:
				return _finish(result_failure(Codes.CANCELLED, "The login was cancelled."))
			yield(get_tree(), "idle_frame")
		var polled = yield(_post_form(url, "oauth/token", poll), "completed")
		if polled.has("failure"):
			return _finish(polled.failure)
		if polled.ok:
			var token = polled.body.get("access_token")
			if not Callback.is_jwt_shaped(token):
				return _finish(result_failure(Codes.MISSING_JWT, "The token answer carried no well-formed JWT."))
			return _finish(result_success(token))
		# Not `match`: in GDScript 3 `continue` inside a match branch falls through to the next pattern.
		var error = polled.body.get("error")
		if error == "authorization_pending":
			continue
		if error == "slow_down":
			interval += SLOW_DOWN_SECONDS
			continue
		if error == "access_denied":
			return _finish(result_failure(Codes.ACCESS_DENIED, "The player denied the sign-in on the verification page."))
		if error == "expired_token":
			return _finish(result_failure(Codes.CODE_EXPIRED, "The code expired before the player entered it. Start the login again."))
		return _finish(result_failure(Codes.AUTHORIZATION_ERROR, "Slotgate ended the device login (%s): %s" % [_text(error, "error"), _text(polled.body.get("error_description", polled.body.get("message")), "no description")]))
	return _finish(result_failure(Codes.INTERNAL_ERROR, "Unexpected end of the device login."))


static func _text(value, fallback: String) -> String:
	if typeof(value) != TYPE_STRING:
		return fallback
	var printable = ""
	for i in range(value.length()):
		var c = value.ord_at(i)
		printable += value[i] if c >= 32 and c <= 126 else "?"
	return printable.substr(0, 300)


# POSTs a form; { ok, body } for a JSON object answer, or { failure: result } when nothing usable came back, the
# login was cancelled, or `deadline` (ticks in ms; 0: none) passed (the failure then carries `late`).
func _post_form(url: Dictionary, path: String, form: String, deadline: int = 0, late: String = "") -> Dictionary:
	# Always a coroutine, so callers can yield on "completed" whatever happens below.
	yield(get_tree(), "idle_frame")
	var origin = url.scheme + "://" + url.host + ":" + str(url.port)
	var unreachable = {"failure": result_failure(Codes.NETWORK_ERROR, "The Slotgate service at %s could not be reached." % origin)}
	var http = HTTPClient.new()
	if http.connect_to_host(url.host.trim_prefix("[").trim_suffix("]"), url.port, url.scheme == "https", true) != OK:
		return unreachable
	while http.get_status() in [HTTPClient.STATUS_RESOLVING, HTTPClient.STATUS_CONNECTING]:
		http.poll()
		yield(get_tree(), "idle_frame")
		var stopped = _stopped(deadline, late)
		if stopped != null:
			http.close()
			return {"failure": result_failure(stopped.code, stopped.message)}
	if http.get_status() != HTTPClient.STATUS_CONNECTED:
		return unreachable
	var headers = ["Content-Type: application/x-www-form-urlencoded", "Accept: application/json"]
	if http.request(HTTPClient.METHOD_POST, url.path + path, headers, form) != OK:
		return unreachable
	while http.get_status() == HTTPClient.STATUS_REQUESTING:
		http.poll()
		yield(get_tree(), "idle_frame")
		var stopped = _stopped(deadline, late)
		if stopped != null:
			http.close()
			return {"failure": result_failure(stopped.code, stopped.message)}
	if not http.has_response():
		return unreachable
	var status = http.get_response_code()
	var bytes = PoolByteArray()
	while http.get_status() == HTTPClient.STATUS_BODY:
		http.poll()
		bytes.append_array(http.read_response_body_chunk())
		yield(get_tree(), "idle_frame")
		var stopped = _stopped(deadline, late)
		if stopped != null:
			http.close()
			return {"failure": result_failure(stopped.code, stopped.message)}
	http.close()
	var parsed = JSON.parse(bytes.get_string_from_utf8())
	if parsed.error != OK or typeof(parsed.result) != TYPE_DICTIONARY:
		return {"failure": result_failure(Codes.NETWORK_ERROR, "The Slotgate service answered HTTP %d without a JSON body." % status)}
	return {"ok": status >= 200 and status < 300, "body": parsed.result}
