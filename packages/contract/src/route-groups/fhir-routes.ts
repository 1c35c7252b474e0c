import { fhirBasePath, fhirRoute } from "../fhir-route-definition.js";
import { fhirOrderRoutes } from "./fhir-order-routes.js";
import { fhirReadRoutes } from "./fhir-read-routes.js";

/**
 * The FHIR R4 endpoint's route table (docs/design/FHIR.md). Each row is one interaction on one resource type; the
 * server registers a handler per row (`registerFhirRoute`), the CapabilityStatement lists exactly these rows, and
 * the FHIR matrix test walks them. Resource groups add their rows here.
 */
export const fhirRoutes = {
  fhirCapabilities: fhirRoute({
    method: "GET",
    path: `${fhirBasePath}/metadata`,
    summary: "The CapabilityStatement: what this FHIR endpoint supports, and how to get a token",
    interaction: "capabilities",
    patientData: false,
  }),
  ...fhirReadRoutes,
  ...fhirOrderRoutes,
} as const;

export type FhirRoutes = typeof fhirRoutes;
