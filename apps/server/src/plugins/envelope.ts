import { type ServerResponse, STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { type ErrorCode, type ErrorIssue, errorStatus } from "@vigil/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";
import { AppError } from "../errors/app-error.js";

const codeByStatus = Object.fromEntries(
  Object.entries(errorStatus).map(([code, status]) => [status, code as ErrorCode]),
) as Record<number, ErrorCode>;

/**
 * The one place errors become HTTP: AppError keeps its code, validation failures become a 400 that names each
 * field, Fastify's own client errors keep their status, and anything else is a 500 whose message is hidden.
 */
export function registerEnvelope(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    let status: number;
    let code: ErrorCode;
    let message: string;
    let details: unknown;

    if (error instanceof AppError) {
      status = error.status;
      code = error.code;
      message = error.message;
      details = error.details;
      for (const [header, value] of Object.entries(error.headers)) reply.header(header, value);
    } else if (hasZodFastifySchemaValidationErrors(error)) {
      status = 400;
      code = "bad_request";
      const issues: ErrorIssue[] = error.validation.map((issue) => ({
        path: [error.validationContext ?? "request", ...issue.instancePath.split("/").filter(Boolean)].join("."),
        message: issue.message ?? "is invalid",
      }));
      message = `Invalid request: ${issues.map((issue) => `${issue.path} ${issue.message}`).join("; ")}`;
      details = { issues };
    } else if (
      !isResponseSerializationError(error) &&
      error.statusCode &&
      error.statusCode >= 400 &&
      error.statusCode < 500
    ) {
      // Fastify's own client errors: malformed JSON, unsupported media type, body too large…
      status = error.statusCode;
      code = codeByStatus[status] ?? "bad_request";
      message = error.message;
    } else {
      status = 500;
      code = "internal";
      message = "Internal Server Error";
      request.log.error({ err: error }, "unhandled error");
    }
    if (status >= 500 && error instanceof AppError) request.log.error({ err: error }, "server error");
    reply
      .status(status)
      .send({ enoch: app.enoch, error: { status, code, message, ...(details === undefined ? {} : { details }) } });
  });

  app.setNotFoundHandler((request, reply) => {
    reply.status(404).send({
      enoch: app.enoch,
      error: { status: 404, code: "not_found", message: `Not found: ${request.method} ${request.url.split("?")[0]}` },
    });
  });
}

/**
 * The router's own refusals (FST_ERR_BAD_URL for a malformed %-escape, FST_ERR_MAX_PARAM_LENGTH for an over-long
 * path segment) happen before any route, hook or error handler runs; Fastify hands them to its `frameworkErrors`
 * option (app.ts), which answers them in the same envelope, with their status.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500;
  const code = codeByStatus[status] ?? (status >= 500 ? "internal" : "bad_request");
  if (status >= 500) request.log.error({ err: error }, "router error");
  const message = status >= 500 ? "Internal Server Error" : error.message;
  // No hook runs for these, so the request-id header (http/request-id.ts) is set here.
  reply.header("x-request-id", request.id);
  reply.status(status).send({ enoch: reply.server.enoch, error: { status, code, message } });
}

/**
 * Errors Node's HTTP parser raises on a connection before any request exists to answer (Fastify's
 * `clientErrorHandler`): a request not received in full within REQUEST_TIMEOUT_SECONDS is a 408, headers too large a
 * 431, anything else unparsable a 400 — in the envelope, like every other answer; then the connection is closed,
 * since what the client sends next cannot be trusted to start a request.
 */
export function answerClientError(enoch: string) {
  return (error: Error & { code?: string }, socket: Socket): void => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    const [status, message] =
      error.code === "ERR_HTTP_REQUEST_TIMEOUT"
        ? [408, "The request was not received in full in time; send it again."]
        : error.code === "HPE_HEADER_OVERFLOW"
          ? [431, "The request headers are too large."]
          : [400, "The request is not valid HTTP."];
    const code = codeByStatus[status] ?? "bad_request";
    const body = JSON.stringify({ enoch, error: { status, code, message } });
    // Node's own rule: never write into an answer that has already begun.
    const answering = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !answering?.headersSent) {
      socket.write(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    }
    socket.destroy(error);
  };
}
