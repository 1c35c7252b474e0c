/**
 * Spec §2's route table, verbatim (`{param}` as the spec writes it). The page table must cover exactly these;
 * the contract's and the web router's tests both check against this one list.
 */
export const specRoutes = [
  "/",
  "/bugs",
  "/bugs/integration-testing",
  "/users",
  "/signin",
  "/unauthorized",
  "/billing",
  "/billing/continuous-monitoring",
  "/billing/continuous-monitoring/{clientId}",
  "/billing/continuous-monitoring/{clientId}/{month}",
  "/reporting",
  "/reporting/continuous-monitoring",
  "/reporting/continuous-monitoring/{clientId}",
  "/continuous-monitoring/clients",
  "/continuous-monitoring/clients/create",
  "/continuous-monitoring/clients/{clientId}/{tab}",
  "/continuous-monitoring/clients/{clientId}/contacts/create",
  "/continuous-monitoring/clients/{clientId}/useful-links/create",
  "/continuous-monitoring/cases/create",
  "/continuous-monitoring/cases/intake",
  "/continuous-monitoring/cases/monitoring",
  "/continuous-monitoring/cases/monitoring/{caseId}/{tab}",
  "/continuous-monitoring/cases/assignments",
  "/continuous-monitoring/cases/preview",
  "/continuous-monitoring/cases/preview/{caseId}/{tab}",
  "/continuous-monitoring/cases/reviewed",
  "/continuous-monitoring/cases/reviewed/{caseId}/{tab}",
  "/continuous-monitoring/cases/closed",
  "/continuous-monitoring/cases/closed/{caseId}/{tab}",
] as const;

/** A spec route in React Router / Fastify pattern form: `{clientId}` → `:clientId`. */
export function toRoutePattern(route: string): string {
  return route.replace(/\{(\w+)\}/g, ":$1");
}
