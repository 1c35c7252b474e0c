import { route } from "../route-definition.js";
import { idParamsSchema } from "../schemas/common.js";
import { fhirPushSettingsInputSchema, fhirPushSettingsViewSchema } from "../schemas/fhir-push.js";

const clientsBase = "/api/continuous-monitoring/clients";
const tags = ["interfaces"];

/**
 * Where a client's signed reports are pushed over FHIR (docs/design/FHIR.md, "Push"): administrators change it,
 * coordinators read it, like the interface profile.
 */
export const fhirPushRoutes = {
  getFhirPushSettings: route({
    method: "GET",
    path: `${clientsBase}/:id/fhir-push`,
    summary: "Where this client's signed reports are pushed over FHIR, and Vigil's JWKS URL to register there",
    tags,
    access: "interfaces:read",
    params: idParamsSchema,
    response: fhirPushSettingsViewSchema,
  }),
  updateFhirPushSettings: route({
    method: "PUT",
    path: `${clientsBase}/:id/fhir-push`,
    summary: "Change the FHIR push settings, based on `baseVersion` (null the first time); a stale base gets 409",
    tags,
    access: "interfaces:manage",
    params: idParamsSchema,
    body: fhirPushSettingsInputSchema,
    response: fhirPushSettingsViewSchema,
  }),
} as const;
