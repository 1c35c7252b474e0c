import { createHash } from "node:crypto";
import { formatInstantInZone, pages } from "@vigil/contract";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { cachedServerSecret } from "../../identity/server-secrets-repository.js";
import { admitLinkCall, type LinkCaller, type LinkLimits, recordLinkRefusal } from "../../links/link-calls.js";
import { signLink, verifyLink } from "../../links/signed-links.js";
import { recordInvoiceDisclosures } from "../reports/disclosures-service.js";
import {
  findInvoiceToSend,
  findNamedPatients,
  findSending,
  fixLinkExpiry,
  type SendingRow,
  spendSendingLink,
} from "./invoice-sending-repository.js";

/*
 * An invoice's one-time link (BILLING.md "Sending invoices and reminders"), for clients whose profile takes links
 * instead of attachments: the shared signed link (links/signed-links.ts) over the sending's id and expiry, keyed with
 * its own server secret, never stored. The e-mail carries the link; the public download passes the links' one gate
 * (links/link-calls.ts), gives the PDF as issued once (its SHA-256 checked) and records the opening on the sending.
 * Links expire as reports' do: REPORT_LINK_HOURS after the sending's first try.
 */

export function invoiceLinkSecret(db: Db): Promise<Buffer> {
  return cachedServerSecret(db, "invoice-links");
}

export type InvoiceLinkSettings = { publicUrl: string; linkHours: number };

/**
 * The link an e-mail of `sending` carries, and until when it works. The expiry is fixed by the first try (whole
 * seconds, the token's precision), so a retried e-mail carries the same link.
 */
export async function invoiceLinkOf(
  db: Db,
  settings: InvoiceLinkSettings,
  sending: SendingRow,
  now: Date,
): Promise<{ url: string; expiresAt: Date }> {
  const wanted = new Date(Math.floor((now.getTime() + settings.linkHours * 3_600_000) / 1000) * 1000);
  const expiresAt = sending.linkExpiresAt ?? (await fixLinkExpiry(db, sending.id, wanted));
  const token = signLink(await invoiceLinkSecret(db), { id: sending.id, expiresAt });
  return { url: `${settings.publicUrl}/#${pages["invoice-download"].href({ token })}`, expiresAt };
}

/** The e-mail's lines about the link, its expiry in the client's zone as report e-mails word it. */
export function linkLines(link: { url: string; expiresAt: Date }, timeZone: string): string[] {
  return [
    `Download the PDF here (the link works once, until ${formatInstantInZone(link.expiresAt, timeZone)}):`,
    link.url,
    "",
    "If the link has expired or was already used, ask for the invoice to be sent again.",
  ];
}

export type InvoiceLinkContext = { db: Db; linkLimits: LinkLimits };

const action = "billing.invoice-link.download";

function refusalOf(sending: SendingRow, expiresAt: Date, now: Date) {
  if (sending.linkOpenedAt) return { reason: "used" as const, at: sending.linkOpenedAt.toISOString() };
  if (now.getTime() >= expiresAt.getTime()) return { reason: "expired" as const, at: expiresAt.toISOString() };
  return undefined;
}

function gone(refusal: { reason: "used" | "expired"; at: string | null }): AppError {
  const message =
    refusal.reason === "used"
      ? "This link was already used: each link downloads the invoice once. Ask for the invoice to be sent again."
      : "This link has expired. Ask for the invoice to be sent again.";
  return new AppError("gone", message, refusal);
}

/**
 * `POST /api/invoice-links/download`: the invoice's PDF as issued, once. The link is spent, the opening recorded on
 * the sending, the patients the PDF names recorded as disclosed and the call audited in one transaction; of two
 * downloads racing on one link, exactly one wins. A used or expired link is a 410 saying which; a forged one a 404.
 */
export async function downloadInvoiceLink(
  ctx: InvoiceLinkContext,
  token: string,
  caller: LinkCaller,
): Promise<{ bytes: Buffer; fileName: string }> {
  const { db } = ctx;
  const now = new Date();
  const secret = await invoiceLinkSecret(db);
  const gate = { kind: "invoice-link" as const, action, limits: ctx.linkLimits, caller, now };
  const link = await admitLinkCall(db, gate, () => verifyLink(secret, token));
  const sending = await findSending(db, link.id);
  // The token carries its expiry: one that does not match the row's was not made for it.
  if (!sending || sending.delivery !== "link" || sending.linkExpiresAt?.getTime() !== link.expiresAt.getTime()) {
    await recordLinkRefusal(db, gate, "invalid", `invoice-link:${link.id}`, { linkId: link.id });
    throw new AppError("not_found", "This link is not valid.");
  }
  const details = { sendingId: sending.id, invoiceId: sending.invoiceId };
  const refuse = async (refusal: { reason: "used" | "expired"; at: string | null }) => {
    await recordLinkRefusal(db, gate, refusal.reason, `invoice-link:${sending.id}`, details);
    return gone(refusal);
  };
  const early = refusalOf(sending, link.expiresAt, now);
  if (early) throw await refuse(early);
  const invoice = await findInvoiceToSend(db, sending.invoiceId);
  if (!invoice) throw new AppError("not_found", "This link is not valid.");
  const digest = createHash("sha256").update(invoice.pdf).digest("hex");
  if (digest !== invoice.pdfSha256) throw new Error(`The stored PDF of ${invoice.number} does not match its SHA-256.`);
  const spent = await db.transaction(async (tx) => {
    if (!(await spendSendingLink(tx, sending.id, now))) return false;
    // The PDF names the patients its client's profile asked for: each is a disclosure to the link's recipients.
    await recordInvoiceDisclosures(tx, await findNamedPatients(tx, invoice.id), {
      recipient: `${sending.recipients.map((recipient) => `${recipient.name} <${recipient.email}>`).join(", ")} (link)`,
      bySub: null,
      byUsername: sending.requestedByUsername,
      byName: sending.requestedByName,
    });
    await recordAudit(tx, {
      action,
      outcome: "success",
      ip: caller.ip,
      userAgent: caller.userAgent,
      target: { type: "invoice", id: invoice.id },
      details: { number: invoice.number, pdfSha256: digest, ...details },
    });
    return true;
  });
  if (spent) return { bytes: invoice.pdf, fileName: `${invoice.number}.pdf` };
  // Spent in the meantime by another call.
  const after = await findSending(db, sending.id);
  throw await refuse({ reason: "used", at: after?.linkOpenedAt?.toISOString() ?? null });
}
