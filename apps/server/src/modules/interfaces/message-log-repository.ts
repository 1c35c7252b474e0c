import type { Hl7Direction, Hl7MessageStatus } from "@vigil/contract";
import { and, desc, eq, getTableColumns, gte, inArray, like, lt, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { cases, clients, hl7Messages, jobs } from "../../db/schema.js";

export type Hl7MessageRow = typeof hl7Messages.$inferSelect;

/** A logged message without its text (which may hold a whole PDF), with its client's name and case number. */
export type Hl7MessageListRow = Omit<Hl7MessageRow, "text" | "ack" | "peer"> & {
  clientName: string | null;
  caseNumber: string | null;
};

export type Hl7MessageDetailRow = Hl7MessageRow & { clientName: string | null; caseNumber: string | null };

export type Hl7MessageFilter = {
  direction?: Hl7Direction | undefined;
  status?: Hl7MessageStatus | undefined;
  clientId?: string | undefined;
  /** `ORM^O01` exactly, or a message code alone (`ORM`) for every event of it. */
  messageType?: string | undefined;
  /** Exactly a control id (MSH-10), an MRN or an order number. */
  search?: string | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
};

/** `%`, `_` and `\` in a message code are literal characters, not LIKE wildcards. */
function literalPrefix(text: string): string {
  return `${text.replace(/[\\%_]/g, (character) => `\\${character}`)}^%`;
}

function conditionsOf(filter: Hl7MessageFilter): SQL | undefined {
  const conditions: (SQL | undefined)[] = [];
  if (filter.direction) conditions.push(eq(hl7Messages.direction, filter.direction));
  if (filter.status) conditions.push(eq(hl7Messages.status, filter.status));
  if (filter.clientId) conditions.push(eq(hl7Messages.clientId, filter.clientId));
  if (filter.messageType) {
    const type = filter.messageType.toUpperCase();
    conditions.push(
      type.includes("^")
        ? eq(hl7Messages.messageType, type)
        : or(eq(hl7Messages.messageType, type), like(hl7Messages.messageType, literalPrefix(type))),
    );
  }
  if (filter.search) {
    // Exact matches only, so each branch of the OR is an index scan (control id, MRN, order number).
    conditions.push(
      or(
        eq(hl7Messages.controlId, filter.search),
        eq(hl7Messages.patientMrn, filter.search),
        eq(hl7Messages.orderNumber, filter.search),
      ),
    );
  }
  if (filter.from) conditions.push(gte(hl7Messages.createdAt, filter.from));
  if (filter.to) conditions.push(lt(hl7Messages.createdAt, filter.to));
  const present = conditions.filter((condition): condition is SQL => condition !== undefined);
  return present.length > 0 ? and(...present) : undefined;
}

const { text: _text, ack: _ack, peer: _peer, ...listColumns } = getTableColumns(hl7Messages);

/** One page of logged messages matching the filter, newest first, and how many match in all. */
export async function findHl7MessagePage(
  db: Db,
  filter: Hl7MessageFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: Hl7MessageListRow[]; total: number }> {
  const where = conditionsOf(filter);
  const rows = await db
    .select({ clientName: clients.name, caseNumber: cases.caseNumber, ...listColumns })
    .from(hl7Messages)
    .leftJoin(clients, eq(clients.id, hl7Messages.clientId))
    .leftJoin(cases, eq(cases.id, hl7Messages.caseId))
    .where(where)
    .orderBy(desc(hl7Messages.createdAt), desc(hl7Messages.id))
    .limit(page.limit)
    .offset(page.offset);
  const [count] = await db.select({ total: sql<number>`count(*)::int` }).from(hl7Messages).where(where);
  return { rows, total: count?.total ?? 0 };
}

export async function findHl7Message(db: Db, id: string): Promise<Hl7MessageDetailRow | undefined> {
  const [row] = await db
    .select({ clientName: clients.name, caseNumber: cases.caseNumber, ...getTableColumns(hl7Messages) })
    .from(hl7Messages)
    .leftJoin(clients, eq(clients.id, hl7Messages.clientId))
    .leftJoin(cases, eq(cases.id, hl7Messages.caseId))
    .where(eq(hl7Messages.id, id))
    .limit(1);
  return row;
}

/**
 * Deletes messages logged before `before`, a batch at a time (so one statement never holds a day's traffic);
 * returns how many went. `replay_of` has no foreign key: a replay may outlive the message it replayed by a day.
 */
export async function deleteHl7MessagesBefore(db: Db, before: Date, batchSize = 1000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const batch = db
      .select({ id: hl7Messages.id })
      .from(hl7Messages)
      .where(lt(hl7Messages.createdAt, before))
      .limit(batchSize);
    const gone = await db.delete(hl7Messages).where(inArray(hl7Messages.id, batch)).returning({ id: hl7Messages.id });
    deleted += gone.length;
    if (gone.length < batchSize) return deleted;
  }
}

/** Locks one logged message's row for the caller's transaction (two replays of it run one after the other). */
export async function lockHl7Message(db: Db, id: string): Promise<void> {
  await db.select({ id: hl7Messages.id }).from(hl7Messages).where(eq(hl7Messages.id, id)).for("update");
}

/** The job that sends an outbound result message (`hl7-result`, keyed by the message), if the queue still has it. */
export async function findResultJobOf(
  db: Db,
  messageId: string,
  kind = "hl7-result",
): Promise<{ id: string; state: string; attempts: number } | undefined> {
  const [row] = await db
    .select({ id: jobs.id, state: jobs.state, attempts: jobs.attempts })
    .from(jobs)
    .where(eq(jobs.uniqueKey, `${kind}:${messageId}`))
    .limit(1);
  return row;
}

/** A result message set waiting to be sent again: its job is due, so the log says so until the next try ends. */
export async function markQueuedAgain(db: Db, id: string): Promise<void> {
  await db
    .update(hl7Messages)
    .set({ status: "queued", processedAt: null })
    .where(and(eq(hl7Messages.id, id), sql`${hl7Messages.status} <> 'acknowledged'`));
}
