import type { FindingRecipientKind } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { findUserById, listEnabledMembers } from "../../identity/user-directory.js";
import { listContacts } from "../clients/contacts-service.js";

/*
 * Who is told of a critical finding, and how (PRODUCT.md §11): at the raise, the first contact of the client flagged
 * for critical findings (in the contacts tab's order: primary first, then by name) and the case's reviewer, or the
 * coordinators when no contact is flagged; at the n-th escalation, the (n+1)-th flagged contact and every coordinator.
 */

export type RecipientChannel = { channel: "email" | "sms"; destination: string };

export type PlannedRecipient = {
  kind: FindingRecipientKind;
  name: string;
  contactId: string | null;
  userSub: string | null;
  username: string | null;
  /** A contact: email and/or SMS, as it has them; a user: email to a verified address only (none: told of nothing). */
  channels: RecipientChannel[];
};

export type RecipientPool = {
  /** The client's contacts flagged `notifyOnCritical`, in the contacts tab's order. */
  flaggedContacts: PlannedRecipient[];
  reviewer: PlannedRecipient | undefined;
  coordinators: PlannedRecipient[];
};

/** Who is told at `level` (0: the raise; n: the n-th escalation); a user is told once per level, whatever their roles. */
export function recipientsAtLevel(level: number, pool: RecipientPool): PlannedRecipient[] {
  const contact = pool.flaggedContacts[level];
  const chosen =
    level === 0
      ? [
          ...(contact ? [contact] : []),
          ...(pool.reviewer ? [pool.reviewer] : []),
          ...(contact ? [] : pool.coordinators),
        ]
      : [...(contact ? [contact] : []), ...pool.coordinators];
  const users = new Set<string>();
  return chosen.filter((recipient) => {
    if (!recipient.username) return true;
    if (users.has(recipient.username)) return false;
    users.add(recipient.username);
    return true;
  });
}

const membersPerPage = 200;

type UserLike = { sub: string; username: string; name: string | null };

/** A user as a recipient: e-mail to a verified address only (AUTH.md: nothing goes to an unconfirmed address). */
async function userRecipient(
  db: Db,
  kind: "reviewer" | "coordinator",
  user: UserLike,
): Promise<PlannedRecipient | undefined> {
  const found = await findUserById(db, user.sub);
  if (!found?.isEnabled) return undefined;
  const channels: RecipientChannel[] =
    found.email && found.emailVerified ? [{ channel: "email", destination: found.email }] : [];
  return {
    kind,
    name: found.name ?? found.username,
    contactId: null,
    userSub: found.sub,
    username: found.username,
    channels,
  };
}

/**
 * Everyone a finding on this case may be sent to, read in the caller's transaction (PGlite has one connection, and a
 * transaction holds it).
 */
export async function loadRecipientPool(
  tx: Db,
  caseRow: { clientId: string; reviewerSub: string | null; reviewerUsername: string | null },
): Promise<RecipientPool> {
  const contacts = await listContacts(tx, caseRow.clientId);
  const flaggedContacts = contacts
    .filter((contact) => contact.notifyOnCritical)
    .map(
      (contact): PlannedRecipient => ({
        kind: "contact",
        name: contact.name,
        contactId: contact._id,
        userSub: null,
        username: null,
        channels: [
          ...(contact.email ? [{ channel: "email" as const, destination: contact.email }] : []),
          ...(contact.phone ? [{ channel: "sms" as const, destination: contact.phone }] : []),
        ],
      }),
    );
  const reviewer =
    caseRow.reviewerSub && caseRow.reviewerUsername
      ? await userRecipient(tx, "reviewer", {
          sub: caseRow.reviewerSub,
          username: caseRow.reviewerUsername,
          name: null,
        })
      : undefined;
  const coordinators: PlannedRecipient[] = [];
  for (let offset = 0; ; offset += membersPerPage) {
    const page = await listEnabledMembers(tx, "coordinator", { limit: membersPerPage, offset });
    for (const member of page.items) {
      const recipient = await userRecipient(tx, "coordinator", { sub: member.id, ...member });
      if (recipient) coordinators.push(recipient);
    }
    if (page.items.length < membersPerPage) break;
  }
  return { flaggedContacts, reviewer, coordinators };
}
