import { z } from "zod";

/** Every error code the API answers with, and the HTTP status it travels with. */
export const errorStatus = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  /** The client did not send the whole request in time (REQUEST_TIMEOUT_SECONDS); the connection is closed. */
  request_timeout: 408,
  conflict: 409,
  /** A one-time link (a finding's acknowledgement, a report's download) that was used, has expired, or whose finding is closed (`details` says which). */
  gone: 410,
  precondition_failed: 412,
  unprocessable: 422,
  precondition_required: 428,
  too_many_requests: 429,
  internal: 500,
  unavailable: 503,
} as const;
export type ErrorCode = keyof typeof errorStatus;
export const errorCodeSchema = z.enum(Object.keys(errorStatus) as [ErrorCode, ...ErrorCode[]]);

/**
 * `details` of the 401 for a token whose sign-in was ended elsewhere, told only to the holder of that sign-in's
 * token so the app can say why they must sign in again: `account-changed` when an administrator ended it (the
 * account disabled, or its password reset), `signed-out-everywhere` when every sign-in of the account was ended at
 * once by its user ("sign out everywhere", or a password changed or reset on another device). A sign-out of this
 * sign-in itself, or a token past its time, has no reason.
 */
export const sessionEndedDetailsSchema = z.object({ reason: z.enum(["account-changed", "signed-out-everywhere"]) });
export type SessionEndedDetails = z.infer<typeof sessionEndedDetailsSchema>;

export const errorIssueSchema = z.object({
  path: z.string().meta({ description: "Dotted path of the offending field, e.g. body.email" }),
  message: z.string(),
});
export type ErrorIssue = z.infer<typeof errorIssueSchema>;

export const errorBodySchema = z.object({
  status: z.number().int(),
  code: errorCodeSchema,
  message: z.string(),
  details: z.unknown().optional(),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;
