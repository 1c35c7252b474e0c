import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type BillingExportAccounts,
  type BillingExportFile,
  type BillingExportList,
  billingExportRoutes,
  type CreateBillingExport,
  type SetBillingExportAccounts,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

const routes = billingExportRoutes;
const accountsKey = [...billingKeys.all, "export-accounts"] as const;
const exportsKey = [...billingKeys.all, "exports"] as const;

/** `GET /billing/export-accounts`: the company's account names the exports post to. */
export function useExportAccounts() {
  return useQuery({
    queryKey: accountsKey,
    queryFn: ({ signal }): Promise<BillingExportAccounts> =>
      requestData("GET", apiPath(routes.getBillingExportAccounts, {}), routes.getBillingExportAccounts.response, {
        signal,
      }),
  });
}

/** `PUT /billing/export-accounts`, naming the version seen (409 with `details.current` when stale). */
export function useSetExportAccounts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SetBillingExportAccounts): Promise<BillingExportAccounts> =>
      requestData("PUT", apiPath(routes.setBillingExportAccounts, {}), routes.setBillingExportAccounts.response, {
        body: input,
        expectedStatuses: [400, 409],
      }),
    onSuccess: (saved) => queryClient.setQueryData(accountsKey, saved),
  });
}

/** `GET /billing/exports`: the export history, newest first. */
export function useBillingExports() {
  return useQuery({
    queryKey: exportsKey,
    queryFn: ({ signal }): Promise<BillingExportList> =>
      requestData("GET", apiPath(routes.listBillingExports, {}), routes.listBillingExports.response, { signal }),
  });
}

/** `POST /billing/exports`: the file, and its entry in the history. */
export function useCreateBillingExport() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: CreateBillingExport): Promise<BillingExportFile> =>
      requestData("POST", apiPath(routes.createBillingExport, {}), routes.createBillingExport.response, {
        body: input,
        expectedStatuses: [400],
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: exportsKey }),
  });
}
