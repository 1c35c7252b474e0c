import { queryOptions, useQuery } from "@tanstack/react-query";
import { type ServiceLevelPeople, serviceLevelPeopleSchema, serviceLevelRoutes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { reportingKeys, type ServiceLevelParams } from "./query-keys";

/** `GET /reporting/service-levels/{clientId}/{month}/people`: each owner's kept and missed clocks (administrators). */
export function fetchServiceLevelPeople(params: ServiceLevelParams, signal?: AbortSignal): Promise<ServiceLevelPeople> {
  return requestData("GET", apiPath(serviceLevelRoutes.getServiceLevelPeople, params), serviceLevelPeopleSchema, {
    signal,
  });
}

export function useServiceLevelPeople(params: ServiceLevelParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    ...queryOptions({
      queryKey: reportingKeys.serviceLevelPeople(params),
      queryFn: ({ signal }) => fetchServiceLevelPeople(params, signal),
    }),
    enabled: options.enabled ?? true,
  });
}
