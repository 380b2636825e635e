"use client";
import { useSlotgate } from "@slotgate/react";

/** The redirect URI: the provider completes the login here (or relays a popup's COOP fallback), then goes home. */
export default function Callback() {
  const { error } = useSlotgate();
  return <p id="callback">{error ? `Sign-in failed: ${error.message}` : "Completing sign-in…"}</p>;
}
