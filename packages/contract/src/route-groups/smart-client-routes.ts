import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import {
  createSmartClientSchema,
  smartClientListSchema,
  smartClientParamsSchema,
  smartClientSchema,
  updateSmartClientSchema,
} from "../schemas/smart-clients.js";

const clientsBase = "/api/continuous-monitoring/clients";
const tags = ["interfaces"];

/**
 * The hospital systems of a client registered for SMART Backend Services (docs/design/FHIR.md): administrators
 * register and change them, coordinators read them, like the interface profile.
 */
export const smartClientRoutes = {
  listSmartClients: route({
    method: "GET",
    path: `${clientsBase}/:id/fhir-systems`,
    summary: "The hospital systems registered to reach this client's data over FHIR",
    tags,
    access: "interfaces:read",
    params: idParamsSchema,
    response: smartClientListSchema,
  }),
  createSmartClient: route({
    method: "POST",
    path: `${clientsBase}/:id/fhir-systems`,
    summary: "Register a hospital system: its client id, its public keys (JWKS URL or JWKS) and its scopes",
    tags,
    access: "interfaces:manage",
    params: idParamsSchema,
    body: createSmartClientSchema,
    response: smartClientSchema,
    successStatus: 201,
  }),
  updateSmartClient: route({
    method: "PUT",
    path: `${clientsBase}/:id/fhir-systems/:systemId`,
    summary: "Change a hospital system's keys, scopes or state, based on `baseVersion`; a stale base gets 409",
    tags,
    access: "interfaces:manage",
    params: smartClientParamsSchema,
    body: updateSmartClientSchema,
    response: smartClientSchema,
  }),
} as const;
