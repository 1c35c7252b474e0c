import { SMTPServer } from "smtp-server";
import { findFreePort } from "./global-setup.js";

/**
 * One message the catcher accepted: its envelope recipients, subject and decoded text (of a single-part message),
 * and the message as received, for a journey that reads a multipart one (an attachment) with mailparser.
 */
export type CaughtMail = { to: string[]; subject: string; text: string; raw?: Buffer };

export type MailCatcher = {
  /** `smtp://127.0.0.1:<port>`, for the server's SMTP_URL. */
  url: string;
  mails: CaughtMail[];
  /** Resolves with the first mail (already caught or still to come) that `match` accepts. */
  waitFor: (match: (mail: CaughtMail) => boolean, timeoutMs?: number) => Promise<CaughtMail>;
  stop: () => Promise<void>;
};

/** Quoted-printable (RFC 2045): soft line breaks dropped, `=XX` bytes decoded as UTF-8. */
function decodeQuotedPrintable(text: string): string {
  const bytes = text
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, "latin1").toString("utf8");
}

/** RFC 2047 encoded words in a header (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`). */
function decodeHeader(value: string): string {
  return value.replace(/=\?utf-8\?([QB])\?([^?]*)\?=\s*/gi, (_match, encoding: string, word: string) =>
    encoding.toUpperCase() === "B"
      ? Buffer.from(word, "base64").toString("utf8")
      : decodeQuotedPrintable(word.replace(/_/g, " ")),
  );
}

/** A single-part text message as nodemailer writes one: headers, a blank line, the body in its transfer encoding. */
export function parseMail(raw: string, to: string[]): CaughtMail {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const header = (name: string) => new RegExp(`^${name}:\\s*(.*)$`, "im").exec(head)?.[1]?.trim() ?? "";
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "quoted-printable"
      ? decodeQuotedPrintable(body)
      : encoding === "base64"
        ? Buffer.from(body.replace(/\s+/g, ""), "base64").toString("utf8")
        : body;
  return { to, subject: decodeHeader(header("Subject")), text: text.replace(/\r\n/g, "\n") };
}

/**
 * A real SMTP peer on 127.0.0.1 (plain, no authentication), as a small deployment's relay would be, that keeps every
 * message it accepts for the journey to read.
 */
export async function startMailCatcher(): Promise<MailCatcher> {
  const mails: CaughtMail[] = [];
  const waiting: { match: (mail: CaughtMail) => boolean; resolve: (mail: CaughtMail) => void }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks);
        const mail = {
          ...parseMail(
            raw.toString("utf8"),
            session.envelope.rcptTo.map((recipient) => recipient.address),
          ),
          raw,
        };
        mails.push(mail);
        for (const waiter of [...waiting]) {
          if (!waiter.match(mail)) continue;
          waiting.splice(waiting.indexOf(waiter), 1);
          waiter.resolve(mail);
        }
        callback();
      });
    },
  });
  const port = await findFreePort();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    waitFor: (match, timeoutMs = 30_000) => {
      const caught = mails.find(match);
      if (caught) return Promise.resolve(caught);
      return new Promise((resolve, reject) => {
        const waiter = { match, resolve };
        waiting.push(waiter);
        setTimeout(() => {
          const index = waiting.indexOf(waiter);
          if (index === -1) return;
          waiting.splice(index, 1);
          reject(
            new Error(
              `No matching mail within ${timeoutMs} ms; caught: ${JSON.stringify(mails.map((mail) => ({ to: mail.to, subject: mail.subject })))}`,
            ),
          );
        }, timeoutMs);
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
