import type { Queryable } from "@slotgate/storage";

/** State of a device authorization (RFC 8628): waiting for the user, decided, or turned into a token. */
export type DeviceStatus = "pending" | "approved" | "denied" | "redeemed";

/** A pending device authorization as the verification page sees it. */
export interface PendingDeviceRow {
  user_code: string;
  client_id: string;
}

/** What one poll of the token endpoint found (and recorded). */
export interface DevicePollRow {
  client_id: string;
  /** Status before this poll; `approved` means this poll redeemed it (it is now `redeemed`). */
  status: DeviceStatus;
  user_id: string | null;
  expired: boolean;
  /** The poll came sooner than the interval after the previous one (the interval was raised). */
  too_fast: boolean;
}

/**
 * Stores a new device authorization (device code as its hash). Returns false when the user code is
 * already taken (the caller draws another).
 */
export async function insertDeviceAuthorization(
  db: Queryable,
  row: { deviceCodeHash: string; userCode: string; clientId: string; intervalSeconds: number; lifetimeSeconds: number },
): Promise<boolean> {
  const rows = await db.query(
    `INSERT INTO device_authorizations (device_code_hash, user_code, client_id, status, interval_seconds, expires_at)
     VALUES ($1, $2, $3, 'pending', $4, now() + make_interval(secs => $5))
     ON CONFLICT (user_code) DO NOTHING RETURNING 1`,
    [row.deviceCodeHash, row.userCode, row.clientId, row.intervalSeconds, row.lifetimeSeconds],
  );
  return rows.length > 0;
}

/** The pending, unexpired authorization with this user code, or null. */
export async function findPendingDevice(db: Queryable, userCode: string): Promise<PendingDeviceRow | null> {
  const rows = await db.query<PendingDeviceRow>(
    "SELECT user_code, client_id FROM device_authorizations WHERE user_code = $1 AND status = 'pending' AND expires_at > now()",
    [userCode],
  );
  return rows[0] ?? null;
}

/** Records the user's decision on a pending, unexpired authorization; false when it is no longer pending. */
export async function decideDevice(db: Queryable, userCode: string, decision: { approved: true; userId: string } | { approved: false }): Promise<boolean> {
  const rows = await db.query(
    `UPDATE device_authorizations SET status = $2, user_id = $3
      WHERE user_code = $1 AND status = 'pending' AND expires_at > now() RETURNING 1`,
    [userCode, decision.approved ? "approved" : "denied", decision.approved ? decision.userId : null],
  );
  return rows.length > 0;
}

/**
 * One poll, atomically: records the poll time, raises the interval by `slowDownSeconds` when a
 * pending authorization is polled sooner than its interval, and turns an approved (unexpired)
 * authorization into `redeemed` so that it yields one token only. Null for an unknown device code
 * or one of another client (left untouched).
 */
export async function pollDevice(db: Queryable, deviceCodeHash: string, clientId: string, slowDownSeconds: number): Promise<DevicePollRow | null> {
  const rows = await db.query<DevicePollRow>(
    `WITH old AS (
       SELECT device_code_hash, status, expires_at < now() AS expired,
              (status = 'pending' AND last_polled_at IS NOT NULL AND now() < last_polled_at + make_interval(secs => interval_seconds)) AS too_fast
         FROM device_authorizations WHERE device_code_hash = $1 AND client_id = $3 FOR UPDATE
     )
     UPDATE device_authorizations d
        SET last_polled_at = now(),
            interval_seconds = d.interval_seconds + CASE WHEN old.too_fast AND NOT old.expired THEN $2 ELSE 0 END,
            status = CASE WHEN old.status = 'approved' AND NOT old.expired THEN 'redeemed' ELSE d.status END
       FROM old
      WHERE d.device_code_hash = old.device_code_hash
  RETURNING d.client_id, old.status, d.user_id::text, old.expired, old.too_fast`,
    [deviceCodeHash, slowDownSeconds, clientId],
  );
  return rows[0] ?? null;
}

/** Makes a device authorization expire now (operators and tests: "the user never came"). */
export async function expireDevice(db: Queryable, userCode: string): Promise<boolean> {
  const rows = await db.query("UPDATE device_authorizations SET expires_at = now() - interval '1 second' WHERE user_code = $1 RETURNING 1", [userCode]);
  return rows.length > 0;
}

/** Deletes device authorizations that expired more than a day ago. */
export async function purgeDevices(db: Queryable): Promise<number> {
  const rows = await db.query("DELETE FROM device_authorizations WHERE expires_at < now() - interval '1 day' RETURNING 1");
  return rows.length;
}
