# CI harness (not part of the add-on): runs SlotgateLogin headless under godot3-server against a real Slotgate
# server and prints one JSON line per event for the test to read.
#   SLOTGATE_HARNESS_MODE=login|device|configs|codes SLOTGATE_HARNESS_CONFIG='<config JSON>' \
#     godot3-server --path engines/godot -s res://test/harness.gd
# login: prints {"open": url} (the test drives the browser), then the result; SLOTGATE_HARNESS_OPENER=fail makes
# the opener fail; SLOTGATE_HARNESS_CANCEL_MS cancels after that long. configs: a JSON array of configs, one result each.
# codes: one line { ALL: SlotgateLogin.Codes.ALL, constants: every constant of the codes script by name }.
extends SceneTree

const SlotgateLoginScript = preload("res://addons/slotgate_login/slotgate_login.gd")


func _init() -> void:
	OS.low_processor_usage_mode = true
	call_deferred("_run")


func _run() -> void:
	var mode = OS.get_environment("SLOTGATE_HARNESS_MODE")
	if mode == "codes":
		_line({"ALL": SlotgateLoginScript.Codes.ALL, "constants": SlotgateLoginScript.Codes.get_script_constant_map()})
		quit(0)
		return
	var parsed = JSON.parse(OS.get_environment("SLOTGATE_HARNESS_CONFIG"))
	var login = SlotgateLoginScript.new()
	root.add_child(login)
	login.open_browser = funcref(self, "_open_fails" if OS.get_environment("SLOTGATE_HARNESS_OPENER") == "fail" else "_open")
	login.connect("device_prompt", self, "_prompt")
	var cancel_ms = OS.get_environment("SLOTGATE_HARNESS_CANCEL_MS")
	if cancel_ms != "":
		create_timer(cancel_ms.to_int() / 1000.0).connect("timeout", login, "cancel")
	var result = {}
	if mode == "configs":
		for config in parsed.result:
			result = yield(login.login(config), "completed")
			_line(result)
		quit(0)
		return
	if mode == "device":
		result = yield(login.login_with_device_code(parsed.result), "completed")
	else:
		result = yield(login.login(parsed.result), "completed")
	_line(result)
	quit(0 if result.Success else 1)


func _line(value: Dictionary) -> void:
	print(JSON.print(value))


func _open(url: String) -> int:
	_line({"open": url})
	return OK


func _open_fails(_url: String) -> int:
	return ERR_CANT_OPEN


func _prompt(prompt: Dictionary) -> void:
	var line = prompt.duplicate()
	line["prompt"] = true
	_line(line)
