import nodemailer from "nodemailer";
import type { MailConfig } from "../../platform/config/config.js";
import { DevMailbox } from "./dev-mailbox.js";

/** One outgoing email (plain text; the server's mails carry a code and a sentence or two). */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** Sends the server's mails: over SMTP (`SMTP_URL`) or into the development mailbox. */
export interface Mailer {
  /** `smtp` in production; `development` writes to the data directory's mailbox (shown in the developer center). */
  readonly kind: "smtp" | "development";
  /** The development mailbox, when that is where mail goes. */
  readonly devMailbox: DevMailbox | null;
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/**
 * The mailer the configuration asks for: nodemailer over `SMTP_URL`, else the development mailbox
 * in `{dataDir}/mailbox` (a development default, announced at start-up).
 *
 * @example
 * ```ts
 * const mailer = createMailer(config.mail, config.dataDir);
 * await mailer.send({ to: "player@example.com", subject: "Your code", text: "123456" });
 * ```
 */
export function createMailer(mail: MailConfig, dataDir: string): Mailer {
  if (!mail.smtpUrl) {
    const box = new DevMailbox(dataDir);
    return {
      kind: "development",
      devMailbox: box,
      send: async (message) => {
        box.deliver({ from: mail.from, ...message });
      },
      close: () => undefined,
    };
  }
  const transport = nodemailer.createTransport(mail.smtpUrl);
  return {
    kind: "smtp",
    devMailbox: null,
    send: async (message) => {
      await transport.sendMail({ from: mail.from, to: message.to, subject: message.subject, text: message.text });
    },
    close: () => transport.close(),
  };
}
