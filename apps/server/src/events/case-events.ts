import type { CaseChange } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";

/** The PostgreSQL channel every instance listens on (and PGlite's in-process equivalent). */
export const caseEventsChannel = "vigil_case_events";

/** What changed, as a hint for screens (they re-read what they show of the case): the contract's `caseChangeSchema`. */
export type { CaseChange };

export type CaseEventInput = { caseId: string; clientId: string; change: CaseChange };

/**
 * Records a write to a case as an event, in the writer's transaction: the row is what a reconnecting stream replays
 * from `Last-Event-ID`, and `pg_notify` is delivered to every listening instance only when (and if) the transaction
 * commits, so no subscriber hears of a change that was rolled back. The payload names the case, never the patient.
 */
export async function publishCaseEvent(tx: Db, event: CaseEventInput): Promise<void> {
  await tx.execute(sql`
    with inserted as (
      insert into case_events (case_id, client_id, change)
      values (${event.caseId}, ${event.clientId}, ${event.change})
      returning id, case_id, client_id, change, at
    )
    select pg_notify(${caseEventsChannel}, json_build_object(
      'id', id, 'caseId', case_id, 'clientId', client_id, 'change', change, 'at', at)::text)
    from inserted`);
}
