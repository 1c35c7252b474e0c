import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import {
  type AllocatePayment,
  type ApplyCredit,
  type Payment,
  type PaymentPage,
  paymentPageSchema,
  paymentRoutes,
  paymentSchema,
  type RecordPayment,
  type RefundPayment,
  type ReversePayment,
  type WriteOffInvoice,
} from "@vigil/contract";
import { requestData } from "../../../lib/api-client";
import { apiPath } from "../../../lib/api-paths";
import { billingKeys } from "./query-keys";

export type PaymentsParams = { clientId?: string; limit: number; offset: number };

/** `GET /billing/payments`: one page of payments, newest first. */
export function fetchPayments(params: PaymentsParams, signal?: AbortSignal): Promise<PaymentPage> {
  return requestData("GET", apiPath(paymentRoutes.listPayments), paymentPageSchema, { query: params, signal });
}

export function usePayments(params: PaymentsParams) {
  return useQuery({
    queryKey: [...billingKeys.all, "payments", params],
    queryFn: ({ signal }) => fetchPayments(params, signal),
    placeholderData: keepPreviousData,
  });
}

// Refusals (409: beyond the payment or the invoice, reversed already) are told in the dialog that asked.
const expectedStatuses = [404, 409];

export function recordPayment(body: RecordPayment): Promise<Payment> {
  return requestData("POST", apiPath(paymentRoutes.recordPayment), paymentSchema, { body, expectedStatuses });
}

export function allocatePayment({ id, ...body }: AllocatePayment & { id: string }): Promise<Payment> {
  return requestData("POST", apiPath(paymentRoutes.allocatePayment, { id }), paymentSchema, { body, expectedStatuses });
}

export function reversePayment({ id, ...body }: ReversePayment & { id: string }): Promise<Payment> {
  return requestData("POST", apiPath(paymentRoutes.reversePayment, { id }), paymentSchema, { body, expectedStatuses });
}

/** `POST /billing/payments/{id}/refunds`: pays money back from what is left of a payment (the client's credit). */
export function refundPayment({ id, ...body }: RefundPayment & { id: string }): Promise<Payment> {
  return requestData("POST", apiPath(paymentRoutes.refundPayment, { id }), paymentSchema, { body, expectedStatuses });
}

/** `POST /billing/invoices/{id}/write-off`: forgives what is open on the invoice, with a reason. */
export function writeOffInvoice({ id, ...body }: WriteOffInvoice & { id: string }): Promise<{ amount: string }> {
  return requestData("POST", apiPath(paymentRoutes.writeOffInvoice, { id }), paymentRoutes.writeOffInvoice.response, {
    body,
    expectedStatuses,
  });
}

/** `POST /billing/clients/{client}/credit/apply`: the client's unallocated payments, oldest first, onto an invoice. */
export function applyClientCredit({
  clientId,
  ...body
}: ApplyCredit & { clientId: string }): Promise<{ allocated: string; payments: string[] }> {
  return requestData(
    "POST",
    apiPath(paymentRoutes.applyClientCredit, { client: clientId }),
    paymentRoutes.applyClientCredit.response,
    { body, expectedStatuses },
  );
}

/** A ledger write; invoices' open amounts and statuses, aging and the payments list all change. */
function usePaymentWrite<V, R>(write: (variables: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSettled: () => queryClient.invalidateQueries({ queryKey: billingKeys.all }),
  });
}

export const useRecordPayment = () => usePaymentWrite(recordPayment);
export const useAllocatePayment = () => usePaymentWrite(allocatePayment);
export const useReversePayment = () => usePaymentWrite(reversePayment);
export const useWriteOffInvoice = () => usePaymentWrite(writeOffInvoice);
export const useApplyClientCredit = () => usePaymentWrite(applyClientCredit);
export const useRefundPayment = () => usePaymentWrite(refundPayment);
