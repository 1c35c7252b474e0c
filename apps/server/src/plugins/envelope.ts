import { type ErrorCode, type ErrorIssue, errorStatus } from "@vigil/contract";
import type { FastifyError, FastifyInstance } from "fastify";
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
