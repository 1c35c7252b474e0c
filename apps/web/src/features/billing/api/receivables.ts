import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { type AgingReport, agingReportSchema, paymentRoutes, statementOfAccountSchema } from "@vigil/contract";
import { requestData, requestFile } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type AgingParams = { asOf?: string; clientId?: string; limit: number; offset: number };

/** `GET /billing/receivables/aging`: one page of clients with open amounts by days past due as of a date. */
export function fetchAging(params: AgingParams, signal?: AbortSignal): Promise<AgingReport> {
  return requestData("GET", apiPath(paymentRoutes.getAgingReport), agingReportSchema, { query: params, signal });
}

export function useAging(params: AgingParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: [...billingKeys.all, "aging", params],
    queryFn: ({ signal }) => fetchAging(params, signal),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export type StatementOfAccountParams = { clientId: string; from: string; to: string };

/** `GET /billing/clients/{client}/statement-of-account`: every entry of a period with the running balance. */
export function useStatementOfAccount(
  { clientId, from, to }: StatementOfAccountParams,
  options: { enabled?: boolean } = {},
) {
  return useQuery({
    queryKey: [...billingKeys.all, "statement-of-account", clientId, from, to],
    queryFn: ({ signal }) =>
      requestData("GET", apiPath(paymentRoutes.getStatementOfAccount, { client: clientId }), statementOfAccountSchema, {
        query: { from, to },
        signal,
        expectedStatuses: [404],
      }),
    enabled: options.enabled ?? true,
  });
}

/** The statement of account as the server renders it: `pdf` or `csv`. */
export function fetchStatementOfAccountFile({ clientId, from, to }: StatementOfAccountParams, kind: "pdf" | "csv") {
  const route = kind === "pdf" ? paymentRoutes.getStatementOfAccountPdf : paymentRoutes.getStatementOfAccountCsv;
  return requestFile("GET", apiPath(route, { client: clientId }), kind, { query: { from, to } });
}
