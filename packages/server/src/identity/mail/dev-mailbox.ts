import { randomBytes } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A message in the development mailbox. */
export interface DevMail {
  id: string;
  /** ISO 8601 time it was sent. */
  date: string;
  from: string;
  to: string;
  subject: string;
  text: string;
}

/**
 * The development mailbox: on the embedded default (no `SMTP_URL`) every mail the server sends is a
 * JSON file in `{dataDir}/mailbox`, newest last, readable in the developer center and by
 * `@slotgate/server/testing`. Never for production: anyone with the data directory reads the codes.
 *
 * @example
 * ```ts
 * const box = new DevMailbox(".slotgate-data");
 * box.list({ to: "player@example.com" }).at(-1)?.text;
 * ```
 */
export class DevMailbox {
  /** The folder holding the messages. */
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, "mailbox");
  }

  /** Stores one message. */
  deliver(message: Omit<DevMail, "id" | "date">): DevMail {
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
    const date = new Date();
    const mail: DevMail = { id: `${date.getTime().toString().padStart(15, "0")}-${randomBytes(4).toString("hex")}`, date: date.toISOString(), ...message };
    writeFileSync(join(this.dir, `${mail.id}.json`), JSON.stringify(mail), { mode: 0o600 });
    return mail;
  }

  /** The newest `limit` messages (to one address when `to` is given), oldest first. */
  list(options: { to?: string; limit?: number } = {}): DevMail[] {
    return readDevMailbox(this.dir, options);
  }
}

/**
 * Reads a development mailbox folder (`{dataDir}/mailbox`): the newest `limit` messages, oldest first.
 *
 * @example
 * ```ts
 * readDevMailbox(join(dataDir, "mailbox"), { to: "player@example.com", limit: 1 });
 * ```
 */
export function readDevMailbox(dir: string, options: { to?: string; limit?: number } = {}): DevMail[] {
  let names: string[];
  try {
    names = readdirSync(dir)
      .filter((n) => n.endsWith(".json"))
      .sort();
  } catch {
    return [];
  }
  const to = options.to?.trim().toLowerCase();
  const out: DevMail[] = [];
  for (let i = names.length - 1; i >= 0 && out.length < (options.limit ?? 50); i--) {
    try {
      const mail = JSON.parse(readFileSync(join(dir, names[i]!), "utf8")) as DevMail;
      if (!to || mail.to.toLowerCase() === to) out.push(mail);
    } catch {
      // a message being written, or not one of ours
    }
  }
  return out.reverse();
}
