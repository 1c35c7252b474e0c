import type { Db } from "../../db/client.js";
import { alertStaffOfFinding } from "../notifications/notifications-service.js";
import { scheduleFindingMessages } from "./finding-job-kinds.js";
import { loadRecipientPool, recipientsAtLevel } from "./finding-recipients.js";
import type { FindingSettings } from "./findings-context.js";
import { type FindingRow, insertDeliveries, insertRecipients, type RecipientRow } from "./findings-repository.js";
import { linkExpiryOf } from "./link-tokens.js";

/**
 * Tells the recipients of one level (0: the raise; n: the n-th escalation), in the caller's transaction: a recipient
 * row each, with its link's expiry, and one waiting message per channel the recipient has. The delivery worker sends
 * them after the commit (a `finding-messages` job enqueued here). A recipient another instance already added at this level is skipped, with its messages.
 * Staff told are also alerted in the app's bell, so a coordinator e-mailed at every escalation sees it there too.
 */
export async function notifyLevel(
  tx: Db,
  settings: FindingSettings,
  finding: Pick<FindingRow, "id" | "caseId" | "dueAt">,
  caseRow: { clientId: string; reviewerSub: string | null; reviewerUsername: string | null },
  level: number,
  now: Date,
): Promise<RecipientRow[]> {
  const planned = recipientsAtLevel(level, await loadRecipientPool(tx, caseRow));
  const linkExpiresAt = linkExpiryOf(now, settings.findings.linkHours);
  const inserted = await insertRecipients(
    tx,
    planned.map((recipient) => ({
      findingId: finding.id,
      kind: recipient.kind,
      name: recipient.name,
      contactId: recipient.contactId,
      userSub: recipient.userSub,
      username: recipient.username,
      level,
      notifiedAt: now,
      linkExpiresAt,
    })),
  );
  await insertDeliveries(
    tx,
    inserted.flatMap((row) => {
      const plan = planned.find(
        (recipient) =>
          recipient.kind === row.kind && recipient.contactId === row.contactId && recipient.username === row.username,
      );
      return (plan?.channels ?? []).map((channel) => ({
        recipientId: row.id,
        findingId: finding.id,
        channel: channel.channel,
        destination: channel.destination,
        nextAttemptAt: now,
      }));
    }),
  );
  if (inserted.length > 0) await scheduleFindingMessages(tx, finding.id);
  await alertStaffOfFinding(tx, {
    usernames: inserted.flatMap((row) => (row.kind !== "contact" && row.username ? [row.username] : [])),
    caseId: finding.caseId,
    dueAt: finding.dueAt,
    state: level === 0 ? "due-soon" : "overdue",
    at: now,
  });
  return inserted;
}
