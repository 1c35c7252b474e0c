import { queryOptions, useQuery } from "@tanstack/react-query";
import { criticalFindingRoutes, type FindingLinkView, findingLinkViewSchema } from "@vigil/contract";
import { oneTimeLinkStatuses } from "../../../components/feedback/one-time-link";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";

/**
 * The refusals the acknowledgement page words itself (a link not ours, used, expired, a finding closed, too many
 * tries): kept off the error list, which speaks to staff.
 */
export const findingLinkStatuses = oneTimeLinkStatuses;

/**
 * `POST /finding-links/lookup`, no account: what the link's holder may see of the finding. The token travels in the
 * body, never in a URL a server would log.
 */
export function lookUpFindingLink(token: string, signal?: AbortSignal): Promise<FindingLinkView> {
  return requestData("POST", apiPath(criticalFindingRoutes.lookUpFindingLink), findingLinkViewSchema, {
    body: { token },
    anonymous: true,
    signal,
    expectedStatuses: findingLinkStatuses,
  });
}

/**
 * The page reads one link at a time (it is remounted for another), so the key leaves the token out: it is not
 * written into anything kept beyond the page, and the answer is dropped once the page is left.
 */
export function findingLinkQueryOptions(token: string) {
  return queryOptions({
    queryKey: ["finding-link"] as const,
    queryFn: ({ signal }) => lookUpFindingLink(token, signal),
    staleTime: Number.POSITIVE_INFINITY,
    gcTime: 0,
  });
}

export function useFindingLink(token: string) {
  return useQuery(findingLinkQueryOptions(token));
}
