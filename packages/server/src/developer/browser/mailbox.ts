import { PATHS } from "@slotgate/protocol";
import { cell, fail, fillRows, setHidden } from "./dom.js";
import type { Session } from "./session.js";

/** One message of the development mailbox (`GET /v1/dev-user/mailbox`). */
interface MailboxMessage {
  date: string;
  to: string;
  subject: string;
  text: string;
}

/** Answer of `GET /v1/dev-user/mailbox`: only on the embedded default (no `SMTP_URL`); elsewhere an error. Its `warning` is on the page already, in the page's language. */
interface MailboxAnswer {
  messages: MailboxMessage[];
}

/**
 * Shows the development mailbox (players' codes) when the server keeps one, and hides the section when it
 * sends mail over SMTP.
 *
 * @example
 * ```ts
 * byId("mailbox-refresh").addEventListener("click", () => loadMailbox(session));
 * ```
 */
export function loadMailbox(session: Session): void {
  session
    .optional<MailboxAnswer>(PATHS.devMailbox)
    .then((box) => {
      setHidden("mailbox", !box);
      if (!box) return;
      fillRows("mails", box.messages, (row, m) => {
        cell(row, m.date);
        cell(row, m.to);
        cell(row, m.subject);
        cell(row, m.text);
      });
    })
    .catch(fail);
}
