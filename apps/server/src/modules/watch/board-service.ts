import {
  type ClockOwner,
  coordinatorsOwner,
  type WatchBoard,
  type WatchBoardRow,
  type watchBoardQuerySchema,
} from "@vigil/contract";
import type { z } from "zod";
import type { Db } from "../../db/client.js";
import { type BoardRow, findBoardPage } from "./board-repository.js";
import { type ClockSettings, clockStateAt } from "./clock-rules.js";

type BoardQuery = z.output<typeof watchBoardQuerySchema>;

const minute = 60_000;

function ownerOf(row: BoardRow): ClockOwner {
  return row.ownerUsername
    ? { kind: "user", user: { sub: row.ownerSub, username: row.ownerUsername, name: row.ownerName } }
    : { kind: "coordinators" };
}

function patientName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter(Boolean).join(" ");
  return name || null;
}

function toBoardRow(row: BoardRow, now: Date, settings: ClockSettings): WatchBoardRow {
  const state = clockStateAt({ dueAt: row.dueAt, stoppedAt: null, windowMinutes: row.windowMinutes }, now, settings);
  return {
    caseId: row.caseId,
    caseNumber: row.caseNumber,
    stage: row.stage,
    priority: row.priority,
    patientName: patientName(row.patientFirstName, row.patientLastName),
    mrn: row.patientMrn,
    client: { id: row.clientId, name: row.clientName, code: row.clientCode, timezone: row.clientTimezone },
    clock: {
      kind: row.kind,
      startedAt: row.startedAt.toISOString(),
      dueSoonAt: new Date(row.dueAt.getTime() - row.windowMinutes * minute * settings.dueSoonShare).toISOString(),
      dueAt: row.dueAt.toISOString(),
      windowMinutes: row.windowMinutes,
      // A kept clock runs: only the three running states can come out of the rule for it.
      state: state === "met" || state === "missed" ? "overdue" : state,
      owner: ownerOf(row),
    },
    otherClocks: Math.max(0, row.clockCount - 1),
    dischargedAt: row.dischargedAt === null ? null : new Date(row.dischargedAt).toISOString(),
  };
}

/**
 * `GET /board` (PRODUCT.md §10): the open cases' running clocks, sooner due first, read from the kept clocks each
 * case write maintains. `mine` is the caller's own (it wins over `owner`); `owner=coordinators` the unassigned.
 */
export async function getWatchBoard(
  db: Db,
  query: BoardQuery,
  caller: { username: string },
  settings: ClockSettings,
): Promise<WatchBoard> {
  const now = new Date();
  const owner = query.mine
    ? caller.username
    : query.owner === undefined
      ? undefined
      : query.owner === coordinatorsOwner
        ? null
        : query.owner;
  const { rows, total } = await findBoardPage(db, {
    clientId: query.clientId,
    stage: query.stage,
    kind: query.kind,
    owner,
    alsoDueSoon: query.alsoDueSoon && owner !== undefined ? { now, dueSoonShare: settings.dueSoonShare } : undefined,
    limit: query.limit,
    offset: query.offset,
  });
  return {
    items: rows.map((row) => toBoardRow(row, now, settings)),
    total,
    limit: query.limit,
    offset: query.offset,
    asOf: now.toISOString(),
  };
}
