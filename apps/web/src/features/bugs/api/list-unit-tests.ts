import { keepPreviousData, queryOptions, useQuery } from "@tanstack/react-query";
import { routes, type UnitTestPage } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { operatorKeys, type UnitTestListParams } from "./operator-query-keys";

/** `GET /bugs/unit-tests`: one page of the last run's results, filtered by the server; totals come with it. */
export function fetchUnitTests(params: UnitTestListParams, signal?: AbortSignal): Promise<UnitTestPage> {
  const { search, ...rest } = params;
  return requestData("GET", apiPath(routes.listUnitTests), routes.listUnitTests.response, {
    query: { ...rest, search: search.trim() || undefined },
    signal,
  });
}

export function unitTestsQueryOptions(params: UnitTestListParams) {
  return queryOptions({
    queryKey: operatorKeys.unitTestPage(params),
    queryFn: ({ signal }) => fetchUnitTests(params, signal),
    // The previous page stays on screen while the next one loads, so the table does not jump.
    placeholderData: keepPreviousData,
  });
}

export function useUnitTests(params: UnitTestListParams) {
  return useQuery(unitTestsQueryOptions(params));
}
