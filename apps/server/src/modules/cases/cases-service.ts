import type { Db } from "../../db/client.js";
import { findCaseNumber } from "./cases-repository.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The case's human number (CM-2026-000123), or undefined when the id names no case. */
export async function getCaseNumber(db: Db, id: string): Promise<string | undefined> {
  return uuidPattern.test(id) ? findCaseNumber(db, id) : undefined;
}
