import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type IssuedStatement, issuedStatementSchema, routes } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type IssueBillingStatementVariables = { clientId: string; month: string; fingerprint: string };

/**
 * `POST /billing/continuous-monitoring/{client}/{month}/statement`, naming in `If-Match` the figures the user
 * looked at (the statement's fingerprint). A repeat answers the same statement; figures that moved since are a
 * 412 and a month issued meanwhile a 409: the page says so and reads the statement again, so they stay off the
 * shared error list.
 */
export function issueBillingStatement({
  clientId,
  month,
  fingerprint,
}: IssueBillingStatementVariables): Promise<IssuedStatement> {
  return requestData(
    "POST",
    apiPath(routes.issueBillingStatement, { client: clientId, month }),
    issuedStatementSchema,
    { headers: { "If-Match": `"${fingerprint}"` }, expectedStatuses: [409, 412] },
  );
}

export function useIssueBillingStatement() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: issueBillingStatement,
    // The month is invoiced now: its statement, the client's months and the overview are all read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
