import { pageOf } from "../envelope.js";
import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  createInterfaceProfileRevisionSchema,
  hl7MessageDetailSchema,
  hl7MessageListQuerySchema,
  hl7MessageSummarySchema,
  interfaceProfileRevisionSchema,
  interfaceProfileSchema,
  interfaceTestResultSchema,
} from "../schemas/interfaces.js";

const clientsBase = "/api/continuous-monitoring/clients";
const tags = ["interfaces"];

/**
 * Hospital interfaces (docs/design/HL7.md): a client's interface profile, with revisions like the protocol's, and
 * the message log of every HL7 v2 message in and out. Reading a message is reading patient data.
 */
export const interfaceRoutes = {
  getInterfaceProfile: route({
    method: "GET",
    path: `${clientsBase}/:id/interface-profile`,
    summary: "The client's current interface profile revision and its whole history",
    tags,
    access: "interfaces:read",
    params: idParamsSchema,
    response: interfaceProfileSchema,
  }),
  createInterfaceProfileRevision: route({
    method: "POST",
    path: `${clientsBase}/:id/interface-profile/revisions`,
    summary: "Append an interface profile revision based on `baseRevision`; a stale base gets 409",
    tags,
    access: "interfaces:manage",
    params: idParamsSchema,
    body: createInterfaceProfileRevisionSchema,
    response: interfaceProfileRevisionSchema,
    successStatus: 201,
  }),
  sendInterfaceTestMessage: route({
    method: "POST",
    path: `${clientsBase}/:id/interface-profile/test-message`,
    summary: "Send a harmless message to the profile's destination and report the acknowledgement in plain words",
    tags,
    access: "interfaces:manage",
    params: idParamsSchema,
    response: interfaceTestResultSchema,
  }),
  listHl7Messages: route({
    method: "GET",
    path: "/api/interfaces/hl7/messages",
    summary: "The HL7 v2 message log, newest first, server-paged and filtered",
    tags,
    access: "interfaces:read",
    patientData: true,
    querystring: hl7MessageListQuerySchema,
    response: pageOf(hl7MessageSummarySchema),
  }),
  getHl7Message: route({
    method: "GET",
    path: "/api/interfaces/hl7/messages/:id",
    summary: "One logged message with its segments, fields and acknowledgement",
    tags,
    access: "interfaces:read",
    patientData: true,
    auditTarget: "hl7-message",
    params: idParamsSchema,
    response: hl7MessageDetailSchema,
  }),
  replayHl7Message: route({
    method: "POST",
    path: "/api/interfaces/hl7/messages/:id/replay",
    summary: "Re-process an inbound message or re-send an outbound one (audited; idempotent)",
    tags,
    access: "interfaces:manage",
    patientData: true,
    auditTarget: "hl7-message",
    params: idParamsSchema,
    response: hl7MessageDetailSchema,
  }),
} as const;
