import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  acknowledgeFindingLinkInputSchema,
  cancelCriticalFindingInputSchema,
  criticalFindingListSchema,
  criticalFindingSchema,
  findingLinkLookupInputSchema,
  findingLinkViewSchema,
  findingParamsSchema,
  raiseCriticalFindingInputSchema,
  recordFindingAcknowledgementInputSchema,
} from "../schemas/critical-findings.js";

const base = "/api/continuous-monitoring/cases/:id/critical-findings";
const tags = ["critical-findings"];

/**
 * The critical-finding loop (PRODUCT.md §11): raised on a case, sent at once to the client's contacts and the case's
 * reviewer, acknowledged by a one-time link or recorded by phone, escalated until acknowledged or cancelled.
 */
export const criticalFindingRoutes = {
  listCriticalFindings: route({
    method: "GET",
    path: base,
    summary: "A case's critical findings, newest first, with their recipients and deliveries",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: criticalFindingListSchema,
  }),
  raiseCriticalFinding: route({
    method: "POST",
    path: base,
    summary: "Raises a critical finding on a case in monitoring or preview and notifies its recipients at once",
    tags,
    access: "findings:raise",
    patientData: true,
    params: idParamsSchema,
    body: raiseCriticalFindingInputSchema,
    response: criticalFindingSchema,
    successStatus: 201,
  }),
  recordFindingAcknowledgement: route({
    method: "POST",
    path: `${base}/:findingId/acknowledgement`,
    summary: "Records an acknowledgement taken by phone (who, when, read back); stops the escalation",
    tags,
    access: "findings:handle",
    patientData: true,
    params: findingParamsSchema,
    body: recordFindingAcknowledgementInputSchema,
    response: criticalFindingSchema,
  }),
  cancelCriticalFinding: route({
    method: "POST",
    path: `${base}/:findingId/cancellation`,
    summary: "Cancels an open critical finding with a reason; stops the escalation",
    tags,
    access: "findings:handle",
    patientData: true,
    params: findingParamsSchema,
    body: cancelCriticalFindingInputSchema,
    response: criticalFindingSchema,
  }),
  lookUpFindingLink: route({
    method: "POST",
    path: "/api/finding-links/lookup",
    summary: "What the holder of an acknowledgement link may see of its finding (no account needed)",
    tags,
    access: "public",
    body: findingLinkLookupInputSchema,
    response: findingLinkViewSchema,
  }),
  acknowledgeFindingLink: route({
    method: "POST",
    path: "/api/finding-links/acknowledgement",
    summary: "Acknowledges a critical finding with a one-time link (no account needed); 410 once used or expired",
    tags,
    access: "public",
    body: acknowledgeFindingLinkInputSchema,
    response: findingLinkViewSchema,
  }),
} as const;
