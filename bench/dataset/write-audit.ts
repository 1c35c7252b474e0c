import { randomUUID } from "node:crypto";
import type { DatasetContext, Person } from "./dataset-context.js";
import { specs } from "./table-specs.js";
import { userAgent } from "./vocabulary.js";

/** One audit event as the server's audit log writes it, from a random address of the hospital's network. */
export function writeAudit(
  context: DatasetContext,
  at: number,
  actor: Person,
  action: string,
  target: [string, string] | null,
  details: unknown,
): void {
  const { random } = context;
  const id = randomUUID();
  const ip = `10.${random.int(0, 3)}.${random.int(0, 255)}.${random.int(1, 254)}`;
  context.out.row(specs.audit, [
    id,
    new Date(at),
    actor.sub,
    actor.username,
    action,
    target?.[0] ?? null,
    target?.[1] ?? null,
    "success",
    ip,
    userAgent,
    details,
  ]);
  context.counts.auditEvents++;
}
