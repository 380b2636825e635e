import type { ClientApplication, PlatformType } from "@slotgate/protocol";
import type { Queryable } from "./database.js";

/** A registered client application as stored (secret only as its keyed hash). */
export interface ClientRow {
  client_id: string;
  dev_user_id: string;
  name: string;
  secret_hash: string;
  redirect_uris: string[];
  download_url: string;
  web_url: string;
  platform: PlatformType;
  blockchain: boolean;
  created_at: Date;
}

const COLUMNS = "client_id, dev_user_id::text, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain, created_at";

/** Inserts a client application. */
export async function insertClient(db: Queryable, row: Omit<ClientRow, "created_at">): Promise<ClientRow> {
  const rows = await db.query<ClientRow>(
    `INSERT INTO clients (client_id, dev_user_id, name, secret_hash, redirect_uris, download_url, web_url, platform, blockchain)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING ${COLUMNS}`,
    [
      row.client_id,
      row.dev_user_id,
      row.name,
      row.secret_hash,
      JSON.stringify(row.redirect_uris),
      row.download_url,
      row.web_url,
      row.platform,
      row.blockchain,
    ],
  );
  return rows[0]!;
}

/** Finds a client by client_id. */
export async function findClient(db: Queryable, clientId: string): Promise<ClientRow | null> {
  const rows = await db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE client_id = $1`, [clientId]);
  return rows[0] ?? null;
}

/** Lists the clients of one developer user (or every client when `devUserId` is null), oldest first. */
export async function listClients(db: Queryable, devUserId: string | null): Promise<ClientRow[]> {
  if (devUserId === null) return db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients ORDER BY created_at, client_id`);
  return db.query<ClientRow>(`SELECT ${COLUMNS} FROM clients WHERE dev_user_id = $1 ORDER BY created_at, client_id`, [devUserId]);
}

/** The public view of a client row (no secret hash). */
export function toClientApplication(row: ClientRow): ClientApplication {
  return {
    client_id: row.client_id,
    name: row.name,
    redirect_uris: row.redirect_uris,
    download_url: row.download_url,
    web_url: row.web_url,
    platform: row.platform,
    blockchain: row.blockchain,
    created_at: new Date(row.created_at).toISOString(),
  };
}
