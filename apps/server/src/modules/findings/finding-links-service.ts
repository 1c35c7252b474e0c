import {
  type acknowledgeFindingLinkInputSchema,
  type FindingLinkRefusal,
  type FindingLinkView,
  formatInstantInZone,
} from "@vigil/contract";
import type { z } from "zod";
import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { AppError } from "../../errors/app-error.js";
import { admitLinkCall } from "../../links/link-calls.js";
import { requireCase } from "../cases/cases-service.js";
import { getPatientDetails } from "../cases/patient-details-service.js";
import { requireClient } from "../clients/clients-service.js";
import { recordCaseChange } from "../watch/watch-service.js";
import type { FindingsContext } from "./findings-context.js";
import {
  type FindingRow,
  findFinding,
  findRecipient,
  markLinkUsed,
  type RecipientRow,
  setAsideWaitingNotices,
  updateFinding,
} from "./findings-repository.js";
import { notSentReason } from "./findings-service.js";
import { readLinkToken } from "./link-tokens.js";

/*
 * The acknowledgement link's two public calls (PRODUCT.md §11), made by a hospital clinician without a Vigil account:
 * what the link shows, and the acknowledgement itself. The token travels in the body. Its signature is checked before
 * anything is looked up, at the public links' one gate (links/link-calls.ts): a forged token counts against the
 * caller's address, a genuine one only against its own link. Every call is audited (no user: the recipient, the name
 * given, the address), refusals included; forged ones as one counted row per address and window.
 */

export type LinkCaller = { ip: string; userAgent?: string | undefined };

type Refusal = { error: AppError; recipientId: string | null; reason: string };
type OpenedLink = { recipient: RecipientRow; finding: FindingRow; timeZone: string };

const invalidLink = (): Refusal => ({
  error: new AppError("not_found", "This link is not valid."),
  recipientId: null,
  reason: "invalid",
});

function gone(message: string, details: FindingLinkRefusal, recipientId: string): Refusal {
  return { error: new AppError("gone", message, details), recipientId, reason: details.reason };
}

/**
 * The links' one gate (links/link-calls.ts): a forged token counts against the caller's address (404, then 429 with
 * Retry-After), audited as one counted row per address and window; a genuine one is never refused for others' calls.
 */
async function throttle(
  ctx: FindingsContext,
  action: "lookup" | "acknowledge",
  token: string,
  caller: LinkCaller,
  now: Date,
): Promise<void> {
  const gate = {
    kind: "finding-link" as const,
    action: action === "lookup" ? "critical-finding.link-lookup" : "critical-finding.acknowledge",
    limits: ctx.settings.identityLimits,
    caller: { ip: caller.ip, userAgent: caller.userAgent },
    now,
    auditDetails: { via: "link", recipientId: null },
  };
  await admitLinkCall(ctx.db, gate, () => {
    const claims = readLinkToken(ctx.linkSecret, token);
    return claims && { id: claims.recipientId, ...claims };
  });
}

/** Why a closed finding's link takes no acknowledgement, in the client's zone. */
function closedRefusal(finding: FindingRow, recipientId: string, timeZone: string): Refusal {
  const at = finding.acknowledgedAt ?? finding.cancelledAt;
  const when = at ? ` at ${formatInstantInZone(at, timeZone)}` : "";
  const message =
    finding.status === "acknowledged"
      ? `This finding was already acknowledged by ${finding.acknowledgedName ?? "someone"}${when}; nothing more is needed.`
      : `This finding was withdrawn${when}; nothing more is needed.`;
  return gone(message, { reason: "closed", at: at?.toISOString() ?? null }, recipientId);
}

/**
 * A link once sent to Vigil staff (the case's reviewer, a coordinator) informs; it never acknowledges for the hospital,
 * whose step it is (PRODUCT.md §10). Staff record an acknowledgement the hospital gave by phone on the case instead.
 */
function staffLink(recipientId: string): Refusal {
  return gone(
    "This link was sent to Vigil staff for information: only the hospital acknowledges a finding. Record an " +
      "acknowledgement the hospital gave by phone on the case in Vigil.",
    { reason: "staff", at: null },
    recipientId,
  );
}

/**
 * The recipient and finding of a genuine link that is neither used nor expired, or why not: a bad signature is a 404
 * before any lookup; a used link says when; an expired one says since when.
 */
async function openLink(db: Db, secret: Buffer, token: string, now: Date): Promise<OpenedLink | Refusal> {
  const claims = readLinkToken(secret, token);
  if (!claims) return invalidLink();
  const recipient = await findRecipient(db, claims.recipientId);
  // A link signed for another expiry than the recipient's is not one Vigil sent.
  if (!recipient || recipient.linkExpiresAt.getTime() !== claims.expiresAt.getTime()) return invalidLink();
  const finding = await findFinding(db, recipient.findingId);
  if (!finding) return invalidLink();
  const { timezone } = await requireClient(db, finding.clientId);
  if (recipient.kind !== "contact") return staffLink(recipient.id);
  if (recipient.linkUsedAt) {
    const at = formatInstantInZone(recipient.linkUsedAt, timezone);
    return gone(
      `This link was already used at ${at}; each link works once.`,
      { reason: "used", at: recipient.linkUsedAt.toISOString() },
      recipient.id,
    );
  }
  if (now.getTime() > claims.expiresAt.getTime()) {
    const at = formatInstantInZone(claims.expiresAt, timezone);
    return gone(
      `This link expired at ${at}. If the finding still needs acknowledging, call the EEG team.`,
      { reason: "expired", at: claims.expiresAt.toISOString() },
      recipient.id,
    );
  }
  return { recipient, finding, timeZone: timezone };
}

async function auditLink(
  ctx: FindingsContext,
  action: "lookup" | "acknowledge",
  caller: LinkCaller,
  outcome: { refusal: Refusal } | { opened: OpenedLink; name?: string },
): Promise<void> {
  const refused = "refusal" in outcome;
  await recordAudit(ctx.db, {
    action: action === "lookup" ? "critical-finding.link-lookup" : "critical-finding.acknowledge",
    outcome: refused ? "failure" : "success",
    target: refused ? undefined : { type: "case", id: outcome.opened.finding.caseId },
    ip: caller.ip,
    userAgent: caller.userAgent,
    details: refused
      ? { via: "link", reason: outcome.refusal.reason, recipientId: outcome.refusal.recipientId }
      : {
          via: "link",
          findingId: outcome.opened.finding.id,
          recipientId: outcome.opened.recipient.id,
          ...(outcome.name ? { name: outcome.name } : {}),
        },
  });
}

/** Unit, room and bed from the case's current patient details; null when none is recorded. */
async function locationOf(db: Db, caseId: string): Promise<FindingLinkView["location"]> {
  const details = await getPatientDetails(db, caseId, new Set()).catch(() => undefined);
  const location = details?.current.location;
  if (!location || (!location.unit && !location.room && !location.bed)) return null;
  return { unit: location.unit ?? null, room: location.room ?? null, bed: location.bed ?? null };
}

/**
 * What the page shows: the finding, by when to acknowledge it, where the patient lies (unit, room, bed: not
 * identifying on its own, and what the physician needs to act), the team's number to call, and the acknowledgement
 * with its read-back once given. The patient's name and MRN only where the operator enabled them in messages.
 */
async function toLinkView(ctx: FindingsContext, opened: OpenedLink, finding: FindingRow): Promise<FindingLinkView> {
  const caseRow = await requireCase(ctx.db, finding.caseId);
  const client = await requireClient(ctx.db, finding.clientId);
  const patientName = [caseRow.patientFirstName, caseRow.patientLastName].filter(Boolean).join(" ");
  const acknowledged = finding.status === "acknowledged";
  return {
    caseNumber: caseRow.caseNumber,
    clientName: client.name,
    timeZone: client.timezone,
    kind: finding.kind,
    onsetAt: finding.onsetAt.toISOString(),
    raisedAt: finding.raisedAt.toISOString(),
    description: finding.description,
    recipientName: opened.recipient.name,
    patient: ctx.settings.findings.messagesIncludePatient ? { name: patientName, mrn: caseRow.patientMrn } : null,
    location: await locationOf(ctx.db, finding.caseId),
    dueAt: finding.dueAt.toISOString(),
    teamPhone: ctx.settings.findings.teamPhone,
    status: finding.status,
    acknowledgedAt: finding.acknowledgedAt?.toISOString() ?? null,
    acknowledgedBy: acknowledged ? finding.acknowledgedName : null,
    // Only to the one whose link acknowledged it: another recipient's page says who, not what was read back.
    readBack:
      acknowledged && finding.acknowledgedRecipientId === opened.recipient.id ? finding.acknowledgementNote : null,
    readBackConfirmed:
      acknowledged && finding.acknowledgedRecipientId === opened.recipient.id && finding.readBackConfirmed,
    linkExpiresAt: opened.recipient.linkExpiresAt.toISOString(),
  };
}

/**
 * `POST /api/finding-links/lookup`: what the holder of a valid, unused link may see. A finding someone else already
 * acknowledged (or staff cancelled) is shown with its status, so the page says who acknowledged it and when.
 */
export async function lookUpFindingLink(
  ctx: FindingsContext,
  token: string,
  caller: LinkCaller,
): Promise<FindingLinkView> {
  const now = new Date();
  await throttle(ctx, "lookup", token, caller, now);
  const opened = await openLink(ctx.db, ctx.linkSecret, token, now);
  if ("error" in opened) {
    await auditLink(ctx, "lookup", caller, { refusal: opened });
    throw opened.error;
  }
  await auditLink(ctx, "lookup", caller, { opened });
  return toLinkView(ctx, opened, opened.finding);
}

/**
 * `POST /api/finding-links/acknowledgement`: acknowledges the finding with the name given and an optional read-back,
 * once. Under the finding's lock (then the case's, as everywhere) the link is checked again, so of two presses of one
 * link, or of two recipients' links at once, exactly one acknowledges and the other is told why not (410).
 */
export async function acknowledgeFindingLink(
  ctx: FindingsContext,
  input: z.output<typeof acknowledgeFindingLinkInputSchema>,
  caller: LinkCaller,
): Promise<FindingLinkView> {
  const now = new Date();
  await throttle(ctx, "acknowledge", input.token, caller, now);
  const opened = await openLink(ctx.db, ctx.linkSecret, input.token, now);
  if ("error" in opened) {
    await auditLink(ctx, "acknowledge", caller, { refusal: opened });
    throw opened.error;
  }
  const { recipient } = opened;
  const outcome = await ctx.db.transaction(async (tx): Promise<Refusal | FindingRow> => {
    const finding = await findFinding(tx, recipient.findingId, { lock: "update" });
    const locked = await findRecipient(tx, recipient.id, "update");
    if (!finding || !locked) return invalidLink();
    const caseRow = await requireCase(tx, finding.caseId, "update");
    if (locked.linkUsedAt) {
      return gone(
        "This link was already used; each link works once.",
        { reason: "used", at: locked.linkUsedAt.toISOString() },
        recipient.id,
      );
    }
    if (finding.status !== "open") return closedRefusal(finding, recipient.id, opened.timeZone);
    await markLinkUsed(tx, recipient.id, now);
    const acknowledged = await updateFinding(tx, finding.id, {
      status: "acknowledged",
      acknowledgedAt: now,
      acknowledgedName: input.name,
      acknowledgedVia: "link",
      acknowledgedRecipientId: recipient.id,
      // The physician confirms on the page that what they typed is the finding read back, not a note.
      readBackConfirmed: input.readBackConfirmed,
      acknowledgementNote: input.readBack,
      nextEscalationAt: null,
    });
    const unsent = await setAsideWaitingNotices(tx, finding.id, notSentReason("acknowledged"), now);
    await recordAudit(tx, {
      action: "critical-finding.acknowledge",
      outcome: "success",
      target: { type: "case", id: finding.caseId },
      ip: caller.ip,
      userAgent: caller.userAgent,
      details: {
        caseNumber: caseRow.caseNumber,
        findingId: finding.id,
        via: "link",
        recipientId: recipient.id,
        name: input.name,
        readBackConfirmed: input.readBackConfirmed,
        unsentMessages: unsent,
      },
    });
    await recordCaseChange(tx, { caseId: finding.caseId, clientId: finding.clientId, change: "record" });
    return acknowledged;
  });
  if ("error" in outcome) {
    await auditLink(ctx, "acknowledge", caller, { refusal: outcome });
    throw outcome.error;
  }
  return toLinkView(ctx, opened, outcome);
}
