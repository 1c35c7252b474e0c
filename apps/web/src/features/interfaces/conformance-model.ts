import {
  type FhirInteraction,
  type FhirRouteDefinition,
  type FhirSearchParam,
  fhirAccessOf,
  fhirRoutes,
} from "@vigil/contract";

export type FhirResourceConformance = {
  resourceType: string;
  interactions: FhirInteraction[];
  /** SMART v2 system scopes the interactions need: `system/Task.c`. */
  scopes: string[];
  searchParams: FhirSearchParam[];
};

/**
 * The FHIR endpoint's resources as the contract's `fhirRoutes` rows define them (the CapabilityStatement is built
 * from the same rows), one entry per resource type in the rows' order.
 */
export function fhirResourcesOf(
  routes: Readonly<Record<string, FhirRouteDefinition>> = fhirRoutes,
): FhirResourceConformance[] {
  const byType = new Map<string, FhirResourceConformance>();
  for (const row of Object.values(routes)) {
    const access = fhirAccessOf(row);
    if (access === "public" || !row.resourceType) continue;
    const entry = byType.get(row.resourceType) ?? {
      resourceType: row.resourceType,
      interactions: [],
      scopes: [],
      searchParams: [],
    };
    if (!entry.interactions.includes(row.interaction)) entry.interactions.push(row.interaction);
    const scope = `system/${row.resourceType}.${access.permission}`;
    if (!entry.scopes.includes(scope)) entry.scopes.push(scope);
    for (const param of row.searchParams ?? []) {
      if (!entry.searchParams.some((known) => known.name === param.name)) entry.searchParams.push(param);
    }
    byType.set(row.resourceType, entry);
  }
  return [...byType.values()];
}
