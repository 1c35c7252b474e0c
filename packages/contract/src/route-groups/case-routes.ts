import { route } from "../route-definition.js";
import {
  assignmentsPageSchema,
  assignmentsQuerySchema,
  caseActionRequestSchema,
  casePageSchema,
  caseQueueQuerySchema,
  caseSchema,
  caseTimelineSchema,
  caseTransitionParamsSchema,
  createCaseRequestSchema,
  transitionActionRequestSchema,
  transitionRequestSchema,
  transitionResultSchema,
  updateCaseRequestSchema,
} from "../schemas/cases.js";
import { protocolRevisionSchema } from "../schemas/clients.js";
import { idParamsSchema, ifMatchHeadersSchema } from "../schemas/common.js";
import { technologistListQuerySchema, technologistPageSchema } from "../schemas/users.js";

const base = "/api/continuous-monitoring";
const tags = ["cases"];

function queue<const S extends string>(stage: S) {
  return route({
    method: "GET",
    path: `${base}/cases/${stage}`,
    summary: `Cases in ${stage}, server-paged and filtered; STAT first, then oldest first by default`,
    tags,
    access: "cases:read",
    patientData: true,
    querystring: caseQueueQuerySchema,
    response: casePageSchema,
  });
}

/**
 * Cases and their workflow (PRODUCT.md §3, spec §7). Every route that shows or changes patient data is audited
 * (`patientData`); writes also record their own audit event in the same transaction as the change. A refused
 * move or action is a 403 (not yours to make) or a 409 (a named precondition fails: `details.failedChecks`).
 */
export const caseRoutes = {
  createCase: route({
    method: "POST",
    path: `${base}/cases`,
    summary: "Open a case in intake for an active client, with the first patient-details revision",
    tags,
    access: "cases:create",
    patientData: true,
    body: createCaseRequestSchema,
    response: caseSchema,
    successStatus: 201,
  }),
  listIntakeCases: queue("intake"),
  listMonitoringCases: queue("monitoring"),
  listPreviewCases: queue("preview"),
  listReviewedCases: queue("reviewed"),
  listClosedCases: queue("closed"),
  listAssignments: route({
    method: "GET",
    path: `${base}/cases/assignments`,
    summary: "Active technologist assignments per technologist, with each technologist's current load",
    tags,
    access: "cases:read",
    patientData: true,
    querystring: assignmentsQuerySchema,
    response: assignmentsPageSchema,
  }),
  getCase: route({
    method: "GET",
    path: `${base}/cases/:id`,
    summary: "One case with its header data and what the caller may do now (its version is also the ETag)",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: caseSchema,
  }),
  updateCase: route({
    method: "PATCH",
    path: `${base}/cases/:id`,
    summary: "Change study type, video, priority or recording times; needs If-Match (428 without, 412 when stale)",
    tags,
    access: "cases:update",
    patientData: true,
    params: idParamsSchema,
    headers: ifMatchHeadersSchema,
    body: updateCaseRequestSchema,
    response: caseSchema,
  }),
  archiveCase: route({
    method: "DELETE",
    path: `${base}/cases/:id`,
    summary: "Archive a case: only while in intake, or by an administrator in any stage (audited)",
    tags,
    access: "cases:create",
    patientData: true,
    params: idParamsSchema,
    response: caseSchema,
  }),
  takeCaseAction: route({
    method: "POST",
    path: `${base}/cases/:id/actions`,
    summary: "assign-technologist, end-assignment, assign-reviewer, set-priority or acknowledge (a STAT case)",
    tags,
    access: "cases:workflow",
    patientData: true,
    params: idParamsSchema,
    body: caseActionRequestSchema,
    response: caseSchema,
  }),
  requestTransition: route({
    method: "POST",
    path: `${base}/cases/:id/transitions`,
    summary: "Move the case to another stage per the transition table; some moves wait for an approval",
    tags,
    access: "cases:workflow",
    patientData: true,
    params: idParamsSchema,
    body: transitionRequestSchema,
    response: transitionResultSchema,
    successStatus: 201,
  }),
  takeTransitionAction: route({
    method: "POST",
    path: `${base}/cases/:id/transitions/:transitionId/actions`,
    summary: "approve or reject (administrators), cancel (the requester or an administrator), comment",
    tags,
    access: "cases:workflow",
    patientData: true,
    params: caseTransitionParamsSchema,
    body: transitionActionRequestSchema,
    response: transitionResultSchema,
  }),
  getCaseTimeline: route({
    method: "GET",
    path: `${base}/cases/:id/timeline`,
    summary: "Actions, transitions and their actions, oldest first, with who and when",
    tags,
    access: "cases:read",
    patientData: true,
    params: idParamsSchema,
    response: caseTimelineSchema,
  }),
  getClosedCaseProtocol: route({
    method: "GET",
    path: `${base}/cases/closed/:id/client-protocol`,
    summary: "The client protocol revision pinned when the case's monitoring started, whatever changed since",
    tags,
    access: "cases:read",
    params: idParamsSchema,
    response: protocolRevisionSchema,
  }),
  listReviewers: route({
    method: "GET",
    path: "/api/users/continuous-monitoring/reviewers",
    summary: "Enabled reviewers (id, username, name) for the assign-reviewer picker, by name",
    tags: ["users"],
    access: "cases:read",
    querystring: technologistListQuerySchema,
    response: technologistPageSchema,
  }),
} as const;

export type CaseRouteName = keyof typeof caseRoutes;
