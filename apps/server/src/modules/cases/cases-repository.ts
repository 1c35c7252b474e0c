import type { CaseStage } from "@vigil/contract";
import {
  and,
  asc,
  count,
  countDistinct,
  desc,
  eq,
  inArray,
  isNull,
  ne,
  type Placeholder,
  type SQL,
  sql,
} from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
import {
  caseActions,
  caseAssignments,
  casePatientDetails,
  cases,
  caseTransitionActions,
  caseTransitions,
  clients,
} from "../../db/schema.js";

export type CaseRow = typeof cases.$inferSelect;
export type CaseValues = typeof cases.$inferInsert;
export type PatientDetailsRow = typeof casePatientDetails.$inferSelect;
export type AssignmentRow = typeof caseAssignments.$inferSelect;
export type CaseActionRow = typeof caseActions.$inferSelect;
export type TransitionRow = typeof caseTransitions.$inferSelect;
export type TransitionActionRow = typeof caseTransitionActions.$inferSelect;
/** Row locks taken inside a transaction: `update` serialises writers of the case. */
export type RowLock = "update" | "share";

export async function findCaseNumber(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ caseNumber: cases.caseNumber }).from(cases).where(eq(cases.id, id)).limit(1);
  return row?.caseNumber;
}

export async function findCasesOfClient(
  db: Db,
  clientId: string,
  filter: { stage?: CaseStage | undefined; limit: number; offset: number },
): Promise<{ rows: CaseRow[]; total: number }> {
  const conditions: SQL[] = [eq(cases.clientId, clientId)];
  if (filter.stage) conditions.push(eq(cases.stage, filter.stage));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select()
      .from(cases)
      .where(where)
      .orderBy(desc(cases.createdAt), desc(cases.id))
      .limit(filter.limit)
      .offset(filter.offset),
    db.select({ total: count() }).from(cases).where(where),
  ]);
  return { rows, total: Number(counted?.total ?? 0) };
}

/** The next number of the case-number sequence (never reused, even when the creating transaction fails). */
export async function nextCaseNumberValue(db: Db): Promise<number> {
  const result = await db.execute(sql`select nextval('case_number_seq')::bigint as value`);
  const rows = (Array.isArray(result) ? result : (result as { rows: unknown[] }).rows) as { value: string | number }[];
  return Number(rows[0]?.value);
}

export async function insertCase(db: Db, values: CaseValues): Promise<CaseRow> {
  const [row] = await db.insert(cases).values(values).returning();
  return row as CaseRow;
}

export async function findCase(db: Db, id: string, lock?: RowLock): Promise<CaseRow | undefined> {
  const query = () =>
    db
      .select()
      .from(cases)
      .where(eq(cases.id, sql.placeholder("id")))
      .limit(1);
  const [row] = lock
    ? await query().for(lock).execute({ id })
    : await preparedOnce(db, "case", () => query().prepare("")).execute({ id });
  return row;
}

/** Changes a case and moves it to its next version. */
export async function updateCaseRow(db: Db, id: string, values: Partial<CaseValues>): Promise<CaseRow> {
  const [row] = await db
    .update(cases)
    // biome-ignore lint/plugin/leading-spread-then-keys: version and updatedAt are case columns too: these win
    .set({ ...values, version: sql`${cases.version} + 1`, updatedAt: sql`now()` })
    .where(eq(cases.id, id))
    .returning();
  return row as CaseRow;
}

export async function insertPatientDetails(
  db: Db,
  values: typeof casePatientDetails.$inferInsert,
): Promise<PatientDetailsRow> {
  const [row] = await db.insert(casePatientDetails).values(values).returning();
  return row as PatientDetailsRow;
}

export async function findLatestPatientDetails(db: Db, caseId: string): Promise<PatientDetailsRow | undefined> {
  const statement = preparedOnce(db, "latest-patient-details", () =>
    db
      .select()
      .from(casePatientDetails)
      .where(eq(casePatientDetails.caseId, sql.placeholder("caseId")))
      .orderBy(desc(casePatientDetails.revision))
      .limit(1)
      .prepare(""),
  );
  const [row] = await statement.execute({ caseId });
  return row;
}

/** Every patient-details revision of a case, oldest first. */
export async function findPatientDetailsHistory(db: Db, caseId: string): Promise<PatientDetailsRow[]> {
  return db
    .select()
    .from(casePatientDetails)
    .where(eq(casePatientDetails.caseId, caseId))
    .orderBy(asc(casePatientDetails.revision));
}

export async function findActiveAssignments(db: Db, caseIds: readonly string[]): Promise<AssignmentRow[]> {
  if (caseIds.length === 0) return [];
  const query = (ids: (string | Placeholder)[]) =>
    db
      .select()
      .from(caseAssignments)
      .where(and(inArray(caseAssignments.caseId, ids), isNull(caseAssignments.endedAt)))
      .orderBy(asc(caseAssignments.startedAt), asc(caseAssignments.id));
  // One case (the case screen, every check) is the hot shape; a list of them is built as it comes.
  if (caseIds.length > 1) return query([...caseIds]);
  return preparedOnce(db, "active-assignments", () => query([sql.placeholder("caseId")]).prepare("")).execute({
    caseId: caseIds[0],
  });
}

export async function insertAssignment(db: Db, values: typeof caseAssignments.$inferInsert): Promise<AssignmentRow> {
  const [row] = await db.insert(caseAssignments).values(values).returning();
  return row as AssignmentRow;
}

/** Ends one assignment, or every active one of the case when no id is given; returns those ended. */
export async function endAssignments(db: Db, caseId: string, assignmentId?: string): Promise<AssignmentRow[]> {
  const conditions: SQL[] = [eq(caseAssignments.caseId, caseId), isNull(caseAssignments.endedAt)];
  if (assignmentId) conditions.push(eq(caseAssignments.id, assignmentId));
  return db
    .update(caseAssignments)
    .set({ endedAt: sql`now()` })
    .where(and(...conditions))
    .returning();
}

export async function insertCaseAction(db: Db, values: typeof caseActions.$inferInsert): Promise<CaseActionRow> {
  const [row] = await db.insert(caseActions).values(values).returning();
  return row as CaseActionRow;
}

export async function insertTransition(db: Db, values: typeof caseTransitions.$inferInsert): Promise<TransitionRow> {
  const [row] = await db.insert(caseTransitions).values(values).returning();
  return row as TransitionRow;
}

export async function updateTransitionRow(
  db: Db,
  id: string,
  values: Partial<typeof caseTransitions.$inferInsert>,
): Promise<TransitionRow> {
  const [row] = await db.update(caseTransitions).set(values).where(eq(caseTransitions.id, id)).returning();
  return row as TransitionRow;
}

export async function findTransition(db: Db, id: string): Promise<TransitionRow | undefined> {
  const [row] = await db.select().from(caseTransitions).where(eq(caseTransitions.id, id)).limit(1);
  return row;
}

export async function findPendingTransitions(db: Db, caseIds: readonly string[]): Promise<TransitionRow[]> {
  if (caseIds.length === 0) return [];
  const query = (ids: (string | Placeholder)[]) =>
    db
      .select()
      .from(caseTransitions)
      .where(and(inArray(caseTransitions.caseId, ids), eq(caseTransitions.status, "pending")));
  if (caseIds.length > 1) return query([...caseIds]);
  return preparedOnce(db, "pending-transitions", () => query([sql.placeholder("caseId")]).prepare("")).execute({
    caseId: caseIds[0],
  });
}

export async function insertTransitionAction(
  db: Db,
  values: typeof caseTransitionActions.$inferInsert,
): Promise<TransitionActionRow> {
  const [row] = await db.insert(caseTransitionActions).values(values).returning();
  return row as TransitionActionRow;
}

/** Everything the timeline shows for one case, each list oldest first. */
export async function findCaseHistory(db: Db, caseId: string) {
  const [actions, transitions, transitionActions] = await Promise.all([
    db
      .select()
      .from(caseActions)
      .where(eq(caseActions.caseId, caseId))
      .orderBy(asc(caseActions.createdAt), asc(caseActions.id)),
    db
      .select()
      .from(caseTransitions)
      .where(eq(caseTransitions.caseId, caseId))
      .orderBy(asc(caseTransitions.createdAt), asc(caseTransitions.id)),
    db
      .select()
      .from(caseTransitionActions)
      .where(eq(caseTransitionActions.caseId, caseId))
      .orderBy(asc(caseTransitionActions.createdAt), asc(caseTransitionActions.id)),
  ]);
  return { actions, transitions, transitionActions };
}

const openAssignment = and(isNull(caseAssignments.endedAt), isNull(cases.archivedAt), ne(cases.stage, "closed"));

/** Technologists with active assignments on open cases, by name, with their load; one page of them. */
export async function findTechnologistLoads(
  db: Db,
  filter: { technologistId?: string | undefined; clientId?: string | undefined; limit: number; offset: number },
) {
  const conditions: (SQL | undefined)[] = [openAssignment];
  if (filter.technologistId) conditions.push(eq(caseAssignments.technologistSub, filter.technologistId));
  if (filter.clientId) conditions.push(eq(cases.clientId, filter.clientId));
  const where = and(...conditions);
  const [rows, [counted]] = await Promise.all([
    db
      .select({
        technologistSub: caseAssignments.technologistSub,
        username: sql<string>`max(${caseAssignments.technologistUsername})`,
        name: sql<string | null>`max(${caseAssignments.technologistName})`,
        active: count(),
        monitoring: sql<number>`count(*) filter (where ${cases.stage} = 'monitoring')`,
        stat: sql<number>`count(*) filter (where ${cases.priority} = 'stat')`,
      })
      .from(caseAssignments)
      .innerJoin(cases, eq(cases.id, caseAssignments.caseId))
      .where(where)
      .groupBy(caseAssignments.technologistSub)
      .orderBy(
        sql`lower(coalesce(max(${caseAssignments.technologistName}), max(${caseAssignments.technologistUsername})))`,
        asc(caseAssignments.technologistSub),
      )
      .limit(filter.limit)
      .offset(filter.offset),
    db
      .select({ total: countDistinct(caseAssignments.technologistSub) })
      .from(caseAssignments)
      .innerJoin(cases, eq(cases.id, caseAssignments.caseId))
      .where(where),
  ]);
  return {
    rows: rows.map((row) => ({
      technologistSub: row.technologistSub,
      username: row.username,
      name: row.name,
      active: Number(row.active),
      monitoring: Number(row.monitoring),
      stat: Number(row.stat),
    })),
    total: Number(counted?.total ?? 0),
  };
}

/** The active assignments on open cases of these technologists, STAT first then oldest first. */
export async function findOpenAssignmentsOf(
  db: Db,
  technologistSubs: readonly string[],
  clientId?: string | undefined,
) {
  if (technologistSubs.length === 0) return [];
  const conditions: (SQL | undefined)[] = [
    openAssignment,
    inArray(caseAssignments.technologistSub, [...technologistSubs]),
  ];
  if (clientId) conditions.push(eq(cases.clientId, clientId));
  return db
    .select({
      assignmentId: caseAssignments.id,
      technologistSub: caseAssignments.technologistSub,
      startedAt: caseAssignments.startedAt,
      caseId: cases.id,
      caseNumber: cases.caseNumber,
      stage: cases.stage,
      priority: cases.priority,
      patientFirstName: cases.patientFirstName,
      patientLastName: cases.patientLastName,
      clientName: clients.name,
    })
    .from(caseAssignments)
    .innerJoin(cases, eq(cases.id, caseAssignments.caseId))
    .innerJoin(clients, eq(clients.id, cases.clientId))
    .where(and(...conditions))
    .orderBy(sql`${cases.priority} desc`, asc(caseAssignments.startedAt), asc(caseAssignments.id));
}
