import {
  type FhirRouteDefinition,
  type FhirSearchParam,
  fhirAccessOf,
  type SmartPermission,
  smartPermissions,
  smartSigningAlgorithms,
} from "@vigil/contract";

/**
 * What the FHIR endpoint says about itself (docs/design/FHIR.md, "Discovery"): the CapabilityStatement and the SMART
 * configuration, both built from the rows of `fhirRoutes` the server registers, so they describe exactly what exists.
 */

export type FhirEndpointUrls = {
  /** `<PUBLIC_URL>/fhir/R4` */
  base: string;
  /** The token endpoint, which an assertion's `aud` must equal. */
  token: string;
};

/** The FHIR resource types served, each with its interactions and search parameters, in the table's order. */
function resourcesOf(rows: readonly FhirRouteDefinition[]) {
  const byType = new Map<string, { interactions: string[]; searchParams: Map<string, FhirSearchParam> }>();
  for (const row of rows) {
    if (row.interaction === "capabilities" || !row.resourceType) continue;
    const entry = byType.get(row.resourceType) ?? {
      interactions: [] as string[],
      searchParams: new Map<string, FhirSearchParam>(),
    };
    byType.set(row.resourceType, entry);
    if (!entry.interactions.includes(row.interaction)) entry.interactions.push(row.interaction);
    for (const param of row.searchParams ?? []) entry.searchParams.set(param.name, param);
  }
  return byType;
}

export function buildCapabilityStatement(
  rows: readonly FhirRouteDefinition[],
  urls: FhirEndpointUrls,
  software: { name: string; version: string; releaseDate?: string },
): Record<string, unknown> {
  const resources = [...resourcesOf(rows)].map(([type, entry]) => ({
    type,
    interaction: entry.interactions.map((code) => ({ code })),
    ...(entry.searchParams.size > 0
      ? {
          searchParam: [...entry.searchParams.values()].map((param) => ({
            name: param.name,
            type: param.type,
            ...(param.documentation ? { documentation: param.documentation } : {}),
          })),
        }
      : {}),
  }));
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: software.releaseDate ?? new Date().toISOString(),
    publisher: "Vigil",
    kind: "instance",
    software: { name: software.name, version: software.version },
    implementation: { description: "Vigil continuous EEG monitoring: FHIR R4 for hospital systems", url: urls.base },
    fhirVersion: "4.0.1",
    format: ["json"],
    rest: [
      {
        mode: "server",
        documentation: "System-to-system access with SMART Backend Services (client_credentials, private_key_jwt).",
        security: {
          extension: [
            {
              url: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
              extension: [{ url: "token", valueUri: urls.token }],
            },
          ],
          cors: false,
          service: [
            {
              coding: [
                {
                  system: "http://terminology.hl7.org/CodeSystem/restful-security-service",
                  code: "SMART-on-FHIR",
                  display: "SMART-on-FHIR",
                },
              ],
              text: "OAuth2 using SMART Backend Services (client_credentials with a private_key_jwt assertion)",
            },
          ],
          description: `Get an access token at ${urls.token}; its SMART v2 system scopes decide each interaction.`,
        },
        resource: resources,
      },
    ],
  };
}

/** `system/<type>.<every permission some route needs>` per resource type: the scopes a system can be granted. */
export function supportedScopes(rows: readonly FhirRouteDefinition[]): string[] {
  const byType = new Map<string, Set<SmartPermission>>();
  for (const row of rows) {
    const access = fhirAccessOf(row);
    if (access === "public") continue;
    const permissions = byType.get(access.resourceType) ?? new Set<SmartPermission>();
    permissions.add(access.permission);
    byType.set(access.resourceType, permissions);
  }
  return [...byType].map(
    ([type, permissions]) => `system/${type}.${smartPermissions.filter((p) => permissions.has(p)).join("")}`,
  );
}

/** `/.well-known/smart-configuration` (SMART App Launch 2.x, §Conformance) for a backend-services-only server. */
export function smartConfiguration(rows: readonly FhirRouteDefinition[], urls: FhirEndpointUrls) {
  return {
    token_endpoint: urls.token,
    token_endpoint_auth_methods_supported: ["private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: [...smartSigningAlgorithms],
    grant_types_supported: ["client_credentials"],
    scopes_supported: supportedScopes(rows),
    capabilities: ["client-confidential-asymmetric", "permission-v2"],
  };
}
