import { z } from "zod";
import { pageOf, pageQuerySchema } from "../envelope.js";
import { isoDateTimeSchema, orderedRange } from "./common.js";

export const auditOutcomeSchema = z.enum(["success", "failure", "denied"]);
export type AuditOutcome = z.infer<typeof auditOutcomeSchema>;

/** One entry of the audit log: who did what to which target, when, from where, and how it ended. */
export const auditEventSchema = z.object({
  id: z.uuid(),
  at: isoDateTimeSchema,
  action: z.string(),
  outcome: auditOutcomeSchema,
  actor: z.object({ sub: z.string().nullable(), username: z.string().nullable() }),
  target: z.object({ type: z.string(), id: z.string() }).nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  details: z.record(z.string(), z.unknown()).nullable(),
  /**
   * How many times it happened: 1, or for a public call refused again and again from one address within a window,
   * the calls counted on this one row (the first at `at`, the last at `details.lastAt`).
   */
  count: z.number().int().min(1),
});
export type AuditEvent = z.infer<typeof auditEventSchema>;

const filterText = z.string().trim().min(1).max(200);

/** `GET /audit`: newest first; `from` is inclusive, `to` exclusive. */
export const auditQuerySchema = orderedRange(
  pageQuerySchema.extend({
    user: filterText.optional().meta({ description: "The actor's username (case-insensitive)" }),
    action: filterText.optional().meta({ description: "Exact action, e.g. user.disable" }),
    targetType: filterText.optional(),
    targetId: filterText.optional(),
    /** Everything about one case: events whose target is the case, or one of its records (details.caseId). */
    caseId: z.uuid("must be a valid id").optional(),
    /** Everything about one client: its own events, and those of its cases and their records (details.clientId). */
    clientId: z.uuid("must be a valid id").optional(),
    outcome: auditOutcomeSchema.optional(),
    from: isoDateTimeSchema.optional(),
    to: isoDateTimeSchema.optional(),
  }),
  { from: "from", to: "to", endExcluded: true },
);
export type AuditQuery = z.output<typeof auditQuerySchema>;

export const auditPageSchema = pageOf(auditEventSchema);
export type AuditPage = z.infer<typeof auditPageSchema>;
