import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** One message the sink received. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  subject: string;
  /** The body (after the headers), soft line breaks of quoted-printable joined. */
  body: string;
}

/** A real SMTP server on 127.0.0.1 (smtp-server) that keeps what it receives. */
export interface SmtpSink {
  /** `smtp://127.0.0.1:{port}` for `SMTP_URL`. */
  url: string;
  messages: ReceivedMail[];
  /** Waits for the next message to `to` after the ones seen so far and returns it. */
  next(to: string, timeoutMs?: number): Promise<ReceivedMail>;
  /** The one-time code of the newest message to `to` (waits for a new one). */
  nextCode(to: string): Promise<string>;
  close(): Promise<void>;
}

function parse(raw: string, from: string, to: string[]): ReceivedMail {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split);
  const body = raw.slice(split + 4).replace(/=\r\n/g, "");
  const subject = /^Subject: (.*(?:\r\n[ \t].*)*)/m.exec(head)?.[1]?.replace(/\r\n[ \t]/g, " ") ?? "";
  return { from, to, raw, subject, body };
}

/** Starts the sink on a free port. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const from = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
        messages.push(
          parse(
            Buffer.concat(chunks).toString("utf8"),
            from,
            session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
          ),
        );
        for (const w of waiters.splice(0)) w();
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const port = (server.server.address() as AddressInfo).port;
  const seen = new Map<string, number>();
  const next = async (to: string, timeoutMs = 10_000): Promise<ReceivedMail> => {
    const address = to.toLowerCase();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const mine = messages.filter((m) => m.to.includes(address));
      const count = seen.get(address) ?? 0;
      if (mine.length > count) {
        seen.set(address, mine.length);
        return mine[mine.length - 1]!;
      }
      if (Date.now() > deadline) throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 200);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  };
  return {
    url: `smtp://127.0.0.1:${port}`,
    messages,
    next,
    async nextCode(to) {
      const mail = await next(to);
      const code = /\b([0-9]{6})\b/.exec(mail.body)?.[1];
      if (!code) throw new Error(`the mail to ${to} has no code: ${mail.body}`);
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
