import { type ApiResult, type ErrorBody, type ErrorCode, errorStatus } from "@vigil/contract";
import type { z } from "zod";
import { apiBaseUrl } from "../config/constants";
import { apiErrorPage, pushApiError } from "./api-errors";
import { reportApiRefusal } from "./api-refusals";
import { getIdToken } from "./auth";
import { IdentityUnreachableError } from "./auth-connection";
import { recordEnoch } from "./enoch-tracker";

export type { ApiResult } from "@vigil/contract";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export type QueryValue = string | number | boolean | null | undefined | readonly (string | number | boolean)[];

export type ApiRequestOptions = {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** Public endpoints (`GET /config`) are called before anyone signs in. */
  anonymous?: boolean;
  /** Statuses the caller handles itself (e.g. 403 from `/chrome` becomes a redirect), kept off the error list. */
  expectedStatuses?: readonly number[];
};

/** Spec §8: a failure that is neither an error envelope nor carries a message. */
export const badRequestError: ErrorBody = { status: 400, code: "bad_request", message: "Bad Request" };
/** Spec §8: no HTTP answer at all (offline, DNS, CORS, aborted). Status 0 says "no response". */
export const unexpectedError: ErrorBody = { status: 0, code: "unavailable", message: "An unexpected error occurred" };
/** The call was not sent: its token needed a refresh and the identity service could not be reached. */
export const identityUnreachableError: ErrorBody = {
  status: 0,
  code: "unavailable",
  message: "Not sent: the sign-in service cannot be reached. You are still signed in; try again in a moment.",
};

const statusCodes = new Map<number, ErrorCode>(
  Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]),
);

function codeForStatus(status: number): ErrorCode {
  return statusCodes.get(status) ?? (status >= 500 ? "internal" : "bad_request");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Error from the envelope's `error`, else from a bare `message`, else "Bad Request" (spec §8). */
export function errorFromBody(body: unknown, status: number): ErrorBody {
  if (isRecord(body)) {
    const error = body.error;
    if (isRecord(error) && typeof error.message === "string") {
      const errorStatusValue = typeof error.status === "number" ? error.status : status;
      return {
        status: errorStatusValue,
        code:
          typeof error.code === "string" && error.code in errorStatus
            ? (error.code as ErrorCode)
            : codeForStatus(errorStatusValue),
        message: error.message,
        ...(error.details === undefined ? {} : { details: error.details }),
      };
    }
    if (typeof body.message === "string" && body.message) {
      return { status, code: codeForStatus(status), message: body.message };
    }
  }
  return badRequestError;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const item of value) search.append(key, String(item));
    else search.append(key, String(value));
  }
  const queryString = search.toString();
  return `${apiBaseUrl}${path}${queryString ? `?${queryString}` : ""}`;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

type RequestIdentity = { method: HttpMethod; path: string };

/**
 * The request's headers with the caller's ID token, or why no call is made: `null` when nobody is signed in (spec
 * §6), a failed result when the token needed a refresh and the identity service could not be reached.
 */
async function requestHeaders(
  request: RequestIdentity,
  page: string | undefined,
  accept: string,
  options: ApiRequestOptions,
): Promise<{ headers: Record<string, string> } | { result: Extract<ApiResult<never>, { success: false }> | null }> {
  const headers: Record<string, string> = { Accept: accept, ...options.headers };
  if (!options.anonymous) {
    let token: string | null;
    try {
      token = await getIdToken();
    } catch (error) {
      if (!(error instanceof IdentityUnreachableError)) throw error;
      // Reads are fetched again once the connection is back (app/session-connection.tsx) and the lost connection
      // is on screen already; a write is not repeated, so the user must learn it was not sent.
      if (request.method !== "GET") pushApiError(identityUnreachableError, request, page);
      return { result: { success: false, data: null, error: identityUnreachableError } };
    }
    if (!token) return { result: null };
    headers.Authorization = `Bearer ${token}`;
  }
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  return { headers };
}

function send(request: RequestIdentity, headers: Record<string, string>, options: ApiRequestOptions) {
  return fetch(buildUrl(request.path, options.query), {
    method: request.method,
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
    credentials: "same-origin",
  });
}

/** A refusal as the spec's error, put on the error list unless the caller expects it. */
function refusal(
  body: unknown,
  response: Response,
  request: RequestIdentity,
  page: string | undefined,
  options: ApiRequestOptions,
): ErrorBody {
  const error = errorFromBody(body, response.status);
  if (!options.expectedStatuses?.includes(error.status)) pushApiError(error, request, page);
  if (!options.anonymous) reportApiRefusal({ error, ...request });
  return error;
}

/**
 * Calls the API (`path` is relative to `/api`) with the ID token and turns every outcome into the spec's
 * `{ success, data, error }`. Returns null without a call when nobody is signed in (spec §6). Every failure is
 * appended to the shared error list; `enoch` is recorded from every JSON answer.
 */
export async function apiRequest<T>(
  method: HttpMethod,
  path: string,
  options: ApiRequestOptions = {},
): Promise<ApiResult<T> | null> {
  const request = { method, path };
  // Its failure is shown on the page that asked, even if the user has gone on by the time it answers.
  const page = apiErrorPage();
  const prepared = await requestHeaders(request, page, "application/json", options);
  if ("result" in prepared) return prepared.result;

  let response: Response;
  let body: unknown;
  try {
    response = await send(request, prepared.headers, options);
    body = await readJson(response);
  } catch (cause) {
    // An abort is the caller changing its mind (TanStack Query cancelling), not a failure to report.
    if (options.signal?.aborted) throw cause;
    pushApiError(unexpectedError, request, page);
    return { success: false, data: null, error: unexpectedError };
  }

  if (isRecord(body) && typeof body.enoch === "string" && body.enoch) recordEnoch(body.enoch);

  if (response.ok) {
    const data = (isRecord(body) && "data" in body ? body.data : (body ?? null)) as T;
    return { success: true, data, error: null };
  }
  return { success: false, data: null, error: refusal(body, response, request, page, options) };
}

/** What a route answering a file sends (the contract's `responseKind`), as the `Accept` header names it. */
export const fileTypes = {
  pdf: "application/pdf",
  csv: "text/csv",
  "fhir-json": "application/fhir+json",
} as const;

export type FileKind = keyof typeof fileTypes;

/** Thrown by `requestData` so TanStack Query sees a failed call as an error with the server's body. */
export class ApiRequestError extends Error {
  readonly body: ErrorBody;
  constructor(body: ErrorBody) {
    super(body.message);
    this.name = "ApiRequestError";
    this.body = body;
  }
}

/** Thrown when a call needs a session and there is none; the page gate sends the user to sign in. */
export class NoSessionError extends Error {
  constructor() {
    super("User needs to be authenticated to call this API.");
    this.name = "NoSessionError";
  }
}

const unexpectedResponse: ErrorBody = {
  status: 500,
  code: "internal",
  message: "The server sent an unexpected response",
};

/**
 * The query-function form of `apiRequest`: resolves with `data` checked against the contract's schema, throws
 * `ApiRequestError` / `NoSessionError` otherwise.
 */
export async function requestData<S extends z.ZodType>(
  method: HttpMethod,
  path: string,
  schema: S,
  options: ApiRequestOptions = {},
): Promise<z.infer<S>> {
  const result = await apiRequest<unknown>(method, path, options);
  if (result === null) throw new NoSessionError();
  if (!result.success) throw new ApiRequestError(result.error);
  const parsed = schema.safeParse(result.data);
  if (!parsed.success) {
    // A contract mismatch is a bug on one side; say so once on screen and keep the details for the console.
    console.error(`Unexpected response for ${method} ${path}`, parsed.error);
    pushApiError(unexpectedResponse, { method, path });
    throw new ApiRequestError(unexpectedResponse);
  }
  return parsed.data;
}

/**
 * A route whose answer is a file (a PDF, a CSV, a FHIR resource) rather than the JSON envelope: the same ID token,
 * error list and refusals as `requestData`, and the bytes as a `Blob`, never an address carrying a token. Errors
 * still come in the envelope, so their `enoch` is recorded; throws `ApiRequestError` / `NoSessionError`.
 */
export async function requestFile(
  method: HttpMethod,
  path: string,
  kind: FileKind,
  options: ApiRequestOptions = {},
): Promise<Blob> {
  const request = { method, path };
  const page = apiErrorPage();
  // The envelope of a refusal is JSON, so the server may answer either.
  const prepared = await requestHeaders(request, page, `${fileTypes[kind]}, application/json`, options);
  if ("result" in prepared) {
    if (prepared.result === null) throw new NoSessionError();
    throw new ApiRequestError(prepared.result.error);
  }

  let response: Response;
  let file: Blob | undefined;
  let body: unknown;
  try {
    response = await send(request, prepared.headers, options);
    if (response.ok) file = await response.blob();
    else body = await readJson(response);
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    pushApiError(unexpectedError, request, page);
    throw new ApiRequestError(unexpectedError);
  }
  if (file) return file;
  if (isRecord(body) && typeof body.enoch === "string" && body.enoch) recordEnoch(body.enoch);
  throw new ApiRequestError(refusal(body, response, request, page, options));
}
