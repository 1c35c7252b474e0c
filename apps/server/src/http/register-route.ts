import type { Readable } from "node:stream";
import { errorEnvelopeSchema, isAllowed, type RouteDefinition, successEnvelope } from "@vigil/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import { AppError } from "../errors/app-error.js";
import type { Principal } from "./principal.js";
import { findUnstorableText } from "./unstorable-text.js";

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type RouteInput<R extends RouteDefinition> = {
  params: Infer<R["params"]>;
  query: Infer<R["querystring"]>;
  body: Infer<R["body"]>;
  principal: R["access"] extends "public" ? Principal | undefined : Principal;
  request: FastifyRequest;
  reply: FastifyReply;
};

/** A file answer (`pdf`, `csv`): its bytes or text and the name a browser saves it under. */
export type FileAnswer = { body: Buffer | string; fileName: string; disposition?: "inline" | "attachment" };

/**
 * An event-stream route answers with the stream of its frames, already formatted (modules/events); a `pdf` or `csv`
 * route with a file; a `fhir-json` route with the resource (sent as `application/fhir+json`, no envelope).
 */
export type RouteHandler<R extends RouteDefinition> = (
  input: RouteInput<R>,
) => Promise<
  R extends { responseKind: "event-stream" }
    ? Readable
    : R extends { responseKind: "pdf" | "csv" }
      ? FileAnswer
      : R["response"] extends z.ZodType
        ? z.input<R["response"]>
        : null
>;

export type Authenticate = (request: FastifyRequest) => Promise<Principal | undefined>;

/** Writes the audit row of one call of a `patientData` route (never throws). */
export type PatientDataAuditor = (
  request: FastifyRequest,
  route: { name: string; method: RouteDefinition["method"]; auditTarget?: string | undefined },
  statusCode: number,
) => Promise<void>;

/** The media type of each answer sent outside the envelope. */
const mediaTypes = {
  "event-stream": "text/event-stream",
  pdf: "application/pdf",
  "fhir-json": "application/fhir+json",
  csv: "text/csv",
} as const;

/**
 * The OpenAPI/serializer entry of a 2xx: the envelope around `response`, or, for the kinds sent as they are (event
 * stream, PDF, FHIR JSON, CSV), `response` under its own media type.
 */
function successSchemaOf(definition: RouteDefinition, response: z.ZodType): unknown {
  const kind = definition.responseKind ?? "json";
  if (kind === "json") return successEnvelope(response);
  return { description: definition.summary, content: { [mediaTypes[kind]]: { schema: response } } };
}

/** `attachment; filename="…"` with the name's non-ASCII characters in `filename*` (RFC 6266). */
function contentDisposition(answer: FileAnswer): string {
  const ascii = answer.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  return `${answer.disposition ?? "attachment"}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(answer.fileName)}`;
}

/**
 * Registers a handler for a route of the contract's table. The table supplies the method, path, schemas and
 * required access, so a handler cannot drift from what the API promises: authentication and authorization run
 * before validation (an anonymous caller learns nothing about the input format), and the answer is wrapped in
 * the envelope with `enoch`.
 */
export function registerRoute<R extends RouteDefinition>(
  app: FastifyInstance,
  name: string,
  definition: R,
  handler: RouteHandler<R>,
): void {
  const schema: Record<string, unknown> = {
    summary: definition.summary,
    tags: definition.tags,
    operationId: name,
    response: {
      "4XX": errorEnvelopeSchema,
      "5XX": errorEnvelopeSchema,
      // A 204 has no body, so no schema: Fastify refuses an `undefined` entry at registration.
      ...(definition.response
        ? { [definition.successStatus ?? 200]: successSchemaOf(definition, definition.response) }
        : {}),
    },
  };
  if (definition.access !== "public") schema.security = [{ idToken: [] }];
  if (definition.params) schema.params = definition.params;
  if (definition.querystring) schema.querystring = definition.querystring;
  if (definition.body) schema.body = definition.body;
  if (definition.headers) schema.headers = definition.headers;

  // Patient data is audited on every call, whatever its outcome: an app without the auditor must not start.
  if (definition.patientData && !app.hasDecorator("auditPatientData")) {
    throw new Error(`${name} reads or writes patient data, but no patient-data auditor is registered`);
  }

  app.route({
    method: definition.method,
    url: definition.path,
    schema,
    config: { routeName: name, access: definition.access, patientData: definition.patientData ?? false },
    onRequest: async (request) => {
      if (definition.access === "public") {
        // A public route works the same with or without a (possibly stale) token.
        request.principal = await app.authenticate(request).catch(() => undefined);
        return;
      }
      request.principal = await app.authenticate(request);
      if (!request.principal) throw new AppError("unauthorized", "Sign-in required.");
      if (!isAllowed(definition.access, request.principal.groups)) {
        throw new AppError("forbidden", "Access denied");
      }
    },
    // Before the schemas: text PostgreSQL cannot hold (U+0000, unpaired surrogates) is a 400 naming the field, not
    // a failed query (a 500) deep in a service. A callback: every request runs it, and it awaits nothing.
    preValidation: (request, _reply, done) => {
      for (const [part, value] of [
        ["params", request.params],
        ["querystring", request.query],
        ["body", request.body],
      ] as const) {
        const issue = findUnstorableText(value, part);
        if (issue) {
          done(new AppError("bad_request", `Invalid request: ${issue.path} ${issue.message}`, { issues: [issue] }));
          return;
        }
      }
      done();
    },
    ...(definition.patientData
      ? {
          // onSend runs before the answer leaves (also for refusals and errors), so the row is written by the
          // time the caller sees the answer.
          onSend: async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
            await app.auditPatientData(
              request,
              { name, method: definition.method, auditTarget: definition.auditTarget },
              reply.statusCode,
            );
            return payload;
          },
        }
      : {}),
    handler: async (request, reply) => {
      const data = await handler({
        params: request.params,
        query: request.query,
        body: request.body,
        principal: request.principal,
        request,
        reply,
      } as RouteInput<R>);
      const status = definition.successStatus ?? 200;
      reply.status(status);
      switch (definition.responseKind) {
        case "event-stream":
          return reply.type("text/event-stream; charset=utf-8").send(data);
        case "pdf":
        case "csv": {
          const file = data as FileAnswer;
          reply.header("content-disposition", contentDisposition(file));
          const type = definition.responseKind === "pdf" ? "application/pdf" : "text/csv; charset=utf-8";
          return reply.type(type).send(file.body);
        }
        case "fhir-json":
          // A string, so Fastify sends it as it is rather than through the envelope's serializer.
          return reply.type("application/fhir+json; charset=utf-8").send(JSON.stringify(data));
      }
      if (status === 204) return reply.send();
      return { enoch: app.enoch, data };
    },
  });
}

declare module "fastify" {
  interface FastifyInstance {
    authenticate: Authenticate;
    enoch: string;
    auditPatientData: PatientDataAuditor;
  }
  interface FastifyContextConfig {
    routeName?: string;
    access?: RouteDefinition["access"];
    patientData?: boolean;
  }
}
