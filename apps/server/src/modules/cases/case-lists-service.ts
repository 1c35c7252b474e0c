import type {
  AssignmentsPage,
  assignmentsQuerySchema,
  CaseListItem,
  CasePage,
  CaseStage,
  CaseSummary,
  CaseTimeline,
  caseQueueQuerySchema,
  TimelineEntry,
} from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { requireClient } from "../clients/clients-service.js";
import { findCaseQueuePage } from "./case-queue-repository.js";
import {
  findCaseHistory,
  findCasesOfClient,
  findOpenAssignmentsOf,
  findTechnologistLoads,
} from "./cases-repository.js";
import { person, requireCase, toCaseSummary, toTransition } from "./cases-service.js";
import { findFindingHistory } from "./finding-history-repository.js";
import { findingTimelineEntries } from "./finding-timeline.js";

type QueueQuery = z.output<typeof caseQueueQuerySchema>;
type AssignmentsQuery = z.output<typeof assignmentsQuerySchema>;

/* The case lists: the stage queues, the assignments page, a client's cases, and one case's timeline. */

function patientName(first: string | null, last: string | null): string | null {
  if (first && last) return `${first} ${last}`;
  return first || last || null;
}

/**
 * A stage queue: server-paged, filtered, STAT first then oldest first by default. Its total is exact up to
 * 10,000 cases and the planner's estimate beyond (`totalIsEstimate`), which the screen words as "about N".
 */
export async function listCaseQueue(db: Db, stage: CaseStage, query: QueueQuery): Promise<CasePage> {
  const { rows, total, totalIsEstimate } = await findCaseQueuePage(db, {
    stage,
    ...query,
    createdFrom: query.createdFrom ? new Date(query.createdFrom) : undefined,
    createdTo: query.createdTo ? new Date(query.createdTo) : undefined,
  });
  // One object per row, built field by field (no summary spread into it): a queue page is the hottest read.
  const items: CaseListItem[] = rows.map((row) => ({
    id: row.id,
    caseNumber: row.caseNumber,
    clientId: row.clientId,
    studyType: row.studyType,
    hasVideo: row.hasVideo,
    priority: row.priority,
    stage: row.stage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    clientName: row.clientName,
    clientCode: row.clientCode,
    clientTimezone: row.clientTimezone,
    patientName: patientName(row.patientFirstName, row.patientLastName),
    mrn: row.patientMrn,
    technologists: row.technologists,
    reviewer: person(row.reviewerSub, row.reviewerUsername, row.reviewerName),
    acknowledgedAt: row.acknowledgedAt?.toISOString() ?? null,
    recordingStartedAt: row.recordingStartedAt?.toISOString() ?? null,
    recordingEndedAt: row.recordingEndedAt?.toISOString() ?? null,
    hasPendingTransition: row.hasPendingTransition,
    version: row.version,
  }));
  return { items, total, totalIsEstimate, limit: query.limit, offset: query.offset };
}

/** Active technologist assignments on open cases, grouped per technologist with their load. */
export async function listAssignments(db: Db, query: AssignmentsQuery): Promise<AssignmentsPage> {
  const { rows, total } = await findTechnologistLoads(db, query);
  const assignments = await findOpenAssignmentsOf(
    db,
    rows.map((row) => row.technologistSub),
    query.clientId,
  );
  return {
    items: rows.map((row) => ({
      technologist: { sub: row.technologistSub, username: row.username, name: row.name },
      load: { active: row.active, monitoring: row.monitoring, stat: row.stat },
      assignments: assignments
        .filter((assignment) => assignment.technologistSub === row.technologistSub)
        .map((assignment) => ({
          assignmentId: assignment.assignmentId,
          caseId: assignment.caseId,
          caseNumber: assignment.caseNumber,
          stage: assignment.stage,
          priority: assignment.priority,
          clientName: assignment.clientName,
          patientName: patientName(assignment.patientFirstName, assignment.patientLastName),
          startedAt: assignment.startedAt.toISOString(),
        })),
    })),
    total,
    limit: query.limit,
    offset: query.offset,
  };
}

/** Actions, moves and their actions of one case, oldest first, with its critical findings' steps among them. */
export async function getCaseTimeline(db: Db, id: string): Promise<CaseTimeline> {
  await requireCase(db, id);
  const [{ actions, transitions, transitionActions }, findingHistory] = await Promise.all([
    findCaseHistory(db, id),
    findFindingHistory(db, id),
  ]);
  const entries: TimelineEntry[] = [
    ...findingTimelineEntries(findingHistory.findings, findingHistory.levels),
    ...actions.map(
      (row): TimelineEntry => ({
        kind: "action",
        id: row.id,
        at: row.createdAt.toISOString(),
        actor: { sub: row.actorSub, username: row.actorUsername, name: row.actorName },
        action: row.action,
        details: row.details,
      }),
    ),
    ...transitions.map((row): TimelineEntry => {
      const { allowedActions: _omitted, ...transition } = toTransition(row, {
        sub: "",
        username: "",
        permissions: new Set(),
      });
      return {
        kind: "transition",
        id: row.id,
        at: row.createdAt.toISOString(),
        actor: transition.requestedBy,
        transition,
      };
    }),
    ...transitionActions.map(
      (row): TimelineEntry => ({
        kind: "transition-action",
        id: row.id,
        at: row.createdAt.toISOString(),
        actor: { sub: row.actorSub, username: row.actorUsername, name: row.actorName },
        transitionId: row.transitionId,
        action: row.action,
        comment: row.comment,
      }),
    ),
  ];
  // Within one transaction now() is constant: what a move does (its actions, the case changes it makes) sorts
  // after the move itself.
  const rank = { transition: 0, action: 1, "transition-action": 2 } as const;
  entries.sort((left, right) => left.at.localeCompare(right.at) || rank[left.kind] - rank[right.kind]);
  return { caseId: id, items: entries };
}

/** `GET clients/{id}/cases`: one page of the client's cases, newest first (404 for an unknown client). */
export async function listClientCases(
  db: Db,
  clientId: string,
  query: { stage?: CaseSummary["stage"] | undefined; limit: number; offset: number },
): Promise<{ items: CaseSummary[]; total: number; limit: number; offset: number }> {
  await requireClient(db, clientId);
  const { rows, total } = await findCasesOfClient(db, clientId, query);
  return { items: rows.map(toCaseSummary), total, limit: query.limit, offset: query.offset };
}
