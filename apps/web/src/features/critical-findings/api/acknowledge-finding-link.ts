import { useMutation } from "@tanstack/react-query";
import {
  type AcknowledgeFindingLinkInput,
  criticalFindingRoutes,
  type FindingLinkView,
  findingLinkViewSchema,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { findingLinkStatuses } from "./look-up-finding-link";

/**
 * `POST /finding-links/acknowledgement`, no account: acknowledges the finding with the one-time link. A used or
 * expired link, or a finding someone else closed meanwhile, is a 410 whose `details.reason` the page words.
 */
export function acknowledgeFindingLink(input: AcknowledgeFindingLinkInput): Promise<FindingLinkView> {
  return requestData("POST", apiPath(criticalFindingRoutes.acknowledgeFindingLink), findingLinkViewSchema, {
    body: input,
    anonymous: true,
    expectedStatuses: findingLinkStatuses,
  });
}

/** Its answer is the finding as it is now (acknowledged, by whom, when): the page's confirmation shows it. */
export function useAcknowledgeFindingLink() {
  return useMutation({ mutationFn: acknowledgeFindingLink });
}
