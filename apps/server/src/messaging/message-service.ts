import type { FastifyBaseLogger } from "fastify";
import nodemailer from "nodemailer";
import type { Config } from "../config.js";
import type { Db } from "../db/client.js";
import { insertOutboxMessage, listOutboxMessages, type OutboxRow } from "./outbox-repository.js";

/** A file sent with an e-mail (an invoice's PDF): SMTP sends the bytes as they are; the outbox names them only. */
export type MessageAttachment = { fileName: string; contentType: string; content: Buffer };

export type Message = {
  channel: "email" | "sms";
  to: string;
  subject: string;
  body: string;
  attachments?: readonly MessageAttachment[];
};

/** Where one channel's messages go. SMTP and an SMS webhook are built in; tests and operators may add others. */
export type MessageTransport = { name: string; send: (message: Message) => Promise<void> };

/**
 * Delivers codes and temporary passwords. A channel without a transport writes to the `outbox` table and the
 * server log instead — a real, readable path (development, tests, first start), never a silent drop.
 */
export class MessageService {
  private readonly transports: Partial<Record<Message["channel"], MessageTransport>>;

  constructor(
    private readonly db: Db,
    config: Config["messaging"],
    private readonly log: FastifyBaseLogger,
    transports: Partial<Record<Message["channel"], MessageTransport>> = {},
  ) {
    this.transports = Object.assign(
      {},
      config.smtpUrl ? { email: createSmtpTransport(config.smtpUrl, config.mailFrom) } : {},
      config.smsWebhookUrl ? { sms: createWebhookSmsTransport(config.smsWebhookUrl) } : {},
      transports,
    );
  }

  /** Which channels really leave the system (the integration self-checks and the UI's wording use this). */
  transportFor(channel: Message["channel"]): string {
    return this.transports[channel]?.name ?? "outbox";
  }

  /**
   * `log` is the logger of the request this send serves, if any (its lines then carry the request's id); a job's
   * sends leave it out and log through the service's own.
   */
  async send(message: Message, log: FastifyBaseLogger = this.log): Promise<void> {
    const transport = this.transports[message.channel];
    if (transport) {
      await transport.send(message);
      return;
    }
    const attached = (message.attachments ?? []).map((file) => `\n[attached: ${file.fileName}]`).join("");
    await insertOutboxMessage(this.db, {
      channel: message.channel,
      recipient: message.to,
      subject: message.subject,
      body: `${message.body}${attached}`,
    });
    log.info(
      { channel: message.channel, to: message.to, subject: message.subject, body: message.body },
      "message kept in the outbox (no transport configured)",
    );
  }

  /**
   * The outbox write `send` would do, keeping nothing (no transport is ever called): for an answer that must take as
   * long whether or not a message went out. Where a transport is configured, the real send runs after the answer.
   */
  async sendNothing(message: Message): Promise<void> {
    if (this.transports[message.channel]) return;
    await insertOutboxMessage(
      this.db,
      { channel: message.channel, recipient: message.to, subject: message.subject, body: message.body },
      { keep: false },
    );
  }

  /** Outbox messages, newest first (admins in development, and tests). */
  listOutbox(filter: { recipient?: string; channel?: string; limit?: number } = {}): Promise<OutboxRow[]> {
    return listOutboxMessages(this.db, {
      recipient: filter.recipient,
      channel: filter.channel,
      limit: filter.limit ?? 50,
    });
  }

  /** Verifies the SMTP connection (the integration self-check); undefined when mail goes to the outbox. */
  async verifyMailTransport(): Promise<boolean | undefined> {
    const transport = this.transports.email as (MessageTransport & { verify?: () => Promise<boolean> }) | undefined;
    return transport?.verify ? transport.verify() : undefined;
  }
}

/**
 * Every mail Vigil sends is written by the machine, not by a person (codes, alerts, critical findings, report links):
 * RFC 3834 marks it so, which keeps vacation responders and auto-forwarders from answering it or looping.
 */
export const automaticMailHeaders = { "Auto-Submitted": "auto-generated" } as const;

function createSmtpTransport(smtpUrl: string, from: string): MessageTransport & { verify: () => Promise<boolean> } {
  const transporter = nodemailer.createTransport(smtpUrl);
  return {
    name: "smtp",
    send: async (message) => {
      await transporter.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.body,
        headers: automaticMailHeaders,
        attachments: message.attachments?.map((file) => ({
          filename: file.fileName,
          contentType: file.contentType,
          content: file.content,
        })),
      });
    },
    verify: () => transporter.verify(),
  };
}

function createWebhookSmsTransport(url: string): MessageTransport {
  return {
    name: "sms-webhook",
    send: async (message) => {
      const response = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ to: message.to, body: message.body }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!response.ok) throw new Error(`The SMS gateway answered ${response.status}.`);
    },
  };
}

/** Spec §9: an email shows the first and last character of its local part; a phone its last 4 digits. */
export function maskDestination(channel: Message["channel"], destination: string): string {
  if (channel === "sms") return `+*******${destination.replace(/\D/g, "").slice(-4)}`;
  const [local = "", domain = ""] = destination.split("@");
  if (local.length <= 1) return `${local}***@${domain}`;
  return `${local[0]}***${local[local.length - 1]}@${domain}`;
}
