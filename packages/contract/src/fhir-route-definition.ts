import type { z } from "zod";
import type { SmartPermission } from "./schemas/smart-clients.js";

/** The FHIR R4 base every FHIR route lives under (docs/design/FHIR.md). */
export const fhirBasePath = "/fhir/R4";

/** FHIR R4 RESTful interactions (TypeRestfulInteraction, SystemRestfulInteraction) and the capabilities one. */
export type FhirInteraction =
  | "capabilities"
  | "read"
  | "vread"
  | "search-type"
  | "history-instance"
  | "create"
  | "update"
  | "patch"
  | "delete";

/** FHIR R4 search parameter types (SearchParamType). */
export type FhirSearchParamType =
  | "number"
  | "date"
  | "string"
  | "token"
  | "reference"
  | "composite"
  | "quantity"
  | "uri";

export type FhirSearchParam = { name: string; type: FhirSearchParamType; documentation?: string };

/**
 * One route of the FHIR endpoint: a resource type and the interaction it serves. The SMART scope it requires follows
 * from the two (`fhirScopeOf`), the CapabilityStatement at `/fhir/R4/metadata` is built from these rows, and the
 * FHIR matrix test walks them: a row that is not registered fails it, as does a registered FHIR route with no row.
 */
export type FhirRouteDefinition = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** The whole path, `/fhir/R4/...`, with `:name` parameters. */
  path: string;
  summary: string;
  interaction: FhirInteraction;
  /** Absent only for `capabilities`. */
  resourceType?: string;
  /** Search parameters a `search-type` route understands; the CapabilityStatement lists them. */
  searchParams?: readonly FhirSearchParam[];
  /** Reads or writes patient data: the answer is never cached and every access is a disclosure. */
  patientData: boolean;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  body?: z.ZodType;
  successStatus?: 200 | 201;
};

export function fhirRoute<const T extends FhirRouteDefinition>(definition: T): T {
  return definition;
}

/** Which SMART v2 permission an interaction needs (SMART App Launch 2.x, "Scopes for requesting FHIR resources"). */
export const fhirPermissionOf: Record<Exclude<FhirInteraction, "capabilities">, SmartPermission> = {
  create: "c",
  read: "r",
  vread: "r",
  "history-instance": "r",
  update: "u",
  patch: "u",
  delete: "d",
  "search-type": "s",
};

/** What a caller needs: `public` (the CapabilityStatement) or one resource type and permission. */
export type FhirAccess = "public" | { resourceType: string; permission: SmartPermission };

export function fhirAccessOf(definition: FhirRouteDefinition): FhirAccess {
  if (definition.interaction === "capabilities") return "public";
  if (!definition.resourceType) throw new Error(`${definition.method} ${definition.path} names no resource type`);
  return { resourceType: definition.resourceType, permission: fhirPermissionOf[definition.interaction] };
}
