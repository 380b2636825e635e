# Enabling the add-on adds the autoload `Slotgate` (a SlotgateLogin node), so any script can call
# `yield(Slotgate.login(config), "completed")`.
tool
extends EditorPlugin


func _enter_tree() -> void:
	add_autoload_singleton("Slotgate", "res://addons/slotgate_login/slotgate_login.gd")


func _exit_tree() -> void:
	remove_autoload_singleton("Slotgate")
