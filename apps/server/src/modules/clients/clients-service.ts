import type { Db } from "../../db/client.js";
import { findClientName } from "./clients-repository.js";

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The client's display name, or undefined when the id names no client. */
export async function getClientName(db: Db, id: string): Promise<string | undefined> {
  return uuidPattern.test(id) ? findClientName(db, id) : undefined;
}
