import type { CaseSummary } from "@vigil/contract";
import type { Db } from "../../db/client.js";
import { type CaseRow, countOpenCasesByClient, findCaseNumber, findCasesOfClient } from "./cases-repository.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The case's human number (CM-2026-000123), or undefined when the id names no case. */
export async function getCaseNumber(db: Db, id: string): Promise<string | undefined> {
  return uuidPattern.test(id) ? findCaseNumber(db, id) : undefined;
}

/** Open cases (any stage but closed) per client id; every id asked for gets a number. */
export async function countOpenCases(db: Db, clientIds: readonly string[]): Promise<Map<string, number>> {
  const counts = await countOpenCasesByClient(db, clientIds);
  return new Map(clientIds.map((id) => [id, counts.get(id) ?? 0]));
}

export function toCaseSummary(row: CaseRow): CaseSummary {
  return {
    id: row.id,
    caseNumber: row.caseNumber,
    clientId: row.clientId,
    studyType: row.studyType as CaseSummary["studyType"],
    hasVideo: row.hasVideo,
    priority: row.priority as CaseSummary["priority"],
    stage: row.stage as CaseSummary["stage"],
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** One page of a client's cases, newest first. The caller checks that the client exists. */
export async function listCasesOfClient(
  db: Db,
  clientId: string,
  query: { stage?: CaseSummary["stage"] | undefined; limit: number; offset: number },
): Promise<{ items: CaseSummary[]; total: number; limit: number; offset: number }> {
  const { rows, total } = await findCasesOfClient(db, clientId, query);
  return { items: rows.map(toCaseSummary), total, limit: query.limit, offset: query.offset };
}
