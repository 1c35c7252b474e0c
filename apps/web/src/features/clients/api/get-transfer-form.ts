import { queryOptions, useQuery } from "@tanstack/react-query";
import { clientRoutes, transferFormSchema } from "@vigil/contract";
import type { z } from "zod";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { clientKeys } from "./query-keys";

export type TransferForm = z.infer<typeof transferFormSchema>;

/** `GET /continuous-monitoring/clients/{id}/protocol/transfer`: the current revision's transfer form. */
export function fetchTransferForm(clientId: string, signal?: AbortSignal): Promise<TransferForm> {
  return requestData("GET", apiPath(clientRoutes.getTransferForm, { id: clientId }), transferFormSchema, {
    signal,
    // A client without a protocol yet has no transfer form; the page says so.
    expectedStatuses: [404],
  });
}

export function transferFormQueryOptions(clientId: string) {
  return queryOptions({
    queryKey: clientKeys.transferForm(clientId),
    queryFn: ({ signal }) => fetchTransferForm(clientId, signal),
  });
}

export function useTransferForm(clientId: string) {
  return useQuery(transferFormQueryOptions(clientId));
}
