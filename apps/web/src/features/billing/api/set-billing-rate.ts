import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ClientMonthRate, clientMonthRateSchema, routes, type SetRateRequest } from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type SetBillingRateVariables = { clientId: string; month: string; input: SetRateRequest };

/**
 * `POST /billing/continuous-monitoring/{client}/{month}/rate`, naming the version of the month's own rate the
 * user saw. A stale one is a 409 with `details.current`; an invoiced month without a reason is a 400 on
 * `body.reason`. The dialog handles both, so they stay off the shared error list.
 */
export function setBillingRate({ clientId, month, input }: SetBillingRateVariables): Promise<ClientMonthRate> {
  return requestData("POST", apiPath(routes.setBillingRate, { client: clientId, month }), clientMonthRateSchema, {
    body: input,
    expectedStatuses: [400, 409],
  });
}

export function useSetBillingRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setBillingRate,
    // A rate reaches every later month that inherits it: lists and statements are all read again.
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}
