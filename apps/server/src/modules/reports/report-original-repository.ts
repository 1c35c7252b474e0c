import { and, eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { reportVersions } from "../../db/schema.js";

/** The stored inputs of an interpretation's signed version (version 1), when it is stored. */
export async function findSignedVersionInputs(
  db: Db,
  interpretationId: string,
): Promise<Record<string, unknown> | undefined> {
  const [row] = await db
    .select({ inputs: reportVersions.inputs })
    .from(reportVersions)
    .where(and(eq(reportVersions.interpretationId, interpretationId), eq(reportVersions.version, 1)))
    .limit(1);
  return row?.inputs as Record<string, unknown> | undefined;
}
