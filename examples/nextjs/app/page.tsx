"use client";
import { useSlotgate } from "@slotgate/react";
import { useEffect, useState } from "react";

interface Slot {
  id: string;
  content_address: string;
  tr_cnt: number;
}
interface Status {
  status: string;
  transfer_enabled: boolean;
}

/**
 * Popup and redirect login with `@slotgate/react`; once logged in, the slot info comes from the route handler
 * (`/api/slot`: backend SDK `getSlotInfo`, then status sync "logged in"); logging out records "logged out"
 * (`/api/logout`) before the browser session ends.
 */
export default function Home() {
  const { status, user, token, error, login, logout } = useSlotgate();
  const [slot, setSlot] = useState<Slot | null>(null);
  const [serviceStatus, setServiceStatus] = useState<Status | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (status !== "logged_in" || !token) return;
    let current = true;
    void fetch("/api/slot", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jwt: token }) })
      .then(async (res) => {
        const body = await res.json();
        if (!current) return;
        if (!res.ok) return setProblem(`${body.error}: ${body.message}`);
        setSlot(body.slot);
        setServiceStatus(body.status);
        setProblem(null);
      })
      .catch(() => current && setProblem("The app's server did not answer."));
    return () => {
      current = false;
    };
  }, [status, token]);

  async function logOut() {
    const res = await fetch("/api/logout", { method: "POST" });
    const body = await res.json();
    if (res.ok) setServiceStatus(body.status);
    else setProblem(`${body.error}: ${body.message}`);
    setSlot(null);
    await logout();
  }

  return (
    <main>
      <h1>Slotgate × Next.js</h1>
      <p>
        Browser: <b id="status">{status}</b> {user && <span id="user">as {user.id}</span>}
      </p>
      <p>
        Service status: <b id="service-status">{serviceStatus ? serviceStatus.status : "unknown"}</b>
        {serviceStatus && <span id="transfer"> (transfer {serviceStatus.transfer_enabled ? "enabled" : "disabled"})</span>}
      </p>
      {slot && (
        <p id="slot">
          Slot <code id="slot-id">{slot.id}</code>, transfers: {slot.tr_cnt}
        </p>
      )}
      {status === "logged_in" ? (
        <button id="logout" type="button" onClick={() => void logOut()}>
          Log out
        </button>
      ) : (
        <>
          <button id="login-popup" type="button" disabled={status === "loading"} onClick={() => void login()}>
            Log in (popup)
          </button>{" "}
          <button id="login-redirect" type="button" disabled={status === "loading"} onClick={() => void login({ mode: "redirect" })}>
            Log in (redirect)
          </button>
        </>
      )}
      {(error || problem) && (
        <p id="error" role="alert">
          {error?.message ?? problem}
        </p>
      )}
    </main>
  );
}
