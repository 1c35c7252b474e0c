import { type FhirRouteDefinition, fhirAccessOf, fhirBasePath } from "@vigil/contract";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import type { z } from "zod";
import { AppError } from "../errors/app-error.js";
import { decodeUtf8 } from "../http/unstorable-text.js";
import { bearerChallenge, FhirError, type FhirIssueCode, operationOutcome } from "./fhir-errors.js";
import { scopesAllow } from "./smart-scopes.js";

/**
 * The FHIR endpoint's frame (docs/design/FHIR.md): everything under `/fhir/R4` is answered as FHIR — bearer tokens of
 * registered hospital systems, the scope each route's interaction needs, `application/fhir+json`, never cached, and
 * every error an `OperationOutcome`. Handlers are registered with `registerFhirRoute` from rows of the contract's
 * `fhirRoutes` table.
 */

/** Who is calling: the Vigil client whose data the token reaches, the hospital system, its granted scopes. */
export type FhirCaller = {
  /** The Vigil client (customer) the system belongs to: every read is limited to its data. */
  clientId: string;
  /** The system's OAuth client id (`iss`/`sub` of its assertions). */
  systemClientId: string;
  /** The registration's row id (`smart_clients.id`), the target of audit rows. */
  smartClientId: string;
  scopes: string[];
};

export type FhirRefusal = {
  status: 401 | 403;
  reason: string;
  route: string;
  caller?: FhirCaller | undefined;
};

export type FhirFrameOptions = {
  /** The caller of a bearer token, or undefined when the token is unknown, expired, revoked or its system disabled. */
  authenticate: (token: string) => Promise<FhirCaller | undefined>;
  /** Hears of every refused call before its answer is written (the audit of refusals). */
  onRefused: (request: FastifyRequest, refusal: FhirRefusal) => Promise<void>;
};

declare module "fastify" {
  interface FastifyRequest {
    fhirCaller?: FhirCaller;
  }
  interface FastifyInstance {
    fhirFrame: FhirFrameOptions;
  }
}

type Infer<T> = T extends z.ZodType ? z.output<T> : undefined;

export type FhirRouteInput<R extends FhirRouteDefinition> = {
  params: Infer<R["params"]>;
  query: Infer<R["querystring"]>;
  body: Infer<R["body"]>;
  /** Always set, except on the public `capabilities` route. */
  caller: R["interaction"] extends "capabilities" ? FhirCaller | undefined : FhirCaller;
  request: FastifyRequest;
  reply: FastifyReply;
};

/** A handler returns the resource (or Bundle) to send; set headers (ETag, Location) on `reply` as needed. */
export type FhirRouteHandler<R extends FhirRouteDefinition> = (input: FhirRouteInput<R>) => Promise<object>;

export const fhirMediaType = "application/fhir+json; charset=utf-8";

/**
 * Registers the frame at `/fhir/R4` and, inside it, the routes `register` adds. Fastify encapsulation keeps the
 * frame's error and not-found handlers and its body parser to these routes only.
 */
export async function registerFhirFrame(
  app: FastifyInstance,
  options: FhirFrameOptions,
  register: (fhir: FastifyInstance) => void,
): Promise<void> {
  await app.register(
    async (fhir) => {
      fhir.decorate("fhirFrame", options);
      // FHIR's own media type carries JSON; decoded strictly, like every JSON body of the API.
      fhir.addContentTypeParser(
        ["application/fhir+json", "application/json+fhir"],
        { parseAs: "buffer", bodyLimit: 1_048_576 },
        (_request, body, done) => {
          const text = decodeUtf8(body as Buffer);
          if (text === undefined) return done(new FhirError(400, "structure", "The body is not valid UTF-8."));
          try {
            done(null, JSON.parse(text));
          } catch {
            done(new FhirError(400, "structure", "The body is not valid JSON."));
          }
        },
      );
      fhir.addHook("onRequest", async (_request, reply) => {
        // Patient data and tokens' answers: nothing under /fhir/R4 may be kept by a cache.
        reply.header("cache-control", "no-store");
      });
      fhir.setErrorHandler((error: FastifyError | FhirError | AppError, request, reply) => {
        const fhirError = asFhirError(error, request.routeOptions.config as { fhirResourceType?: string });
        if (fhirError.status >= 500) request.log.error({ err: error }, "FHIR request failed");
        for (const [header, value] of Object.entries(fhirError.headers)) reply.header(header, value);
        return reply.status(fhirError.status).type(fhirMediaType).send(fhirError.outcome);
      });
      fhir.setNotFoundHandler((request, reply) =>
        reply
          .status(404)
          .type(fhirMediaType)
          .send(
            operationOutcome([
              {
                severity: "error",
                code: "not-supported",
                diagnostics: `This FHIR endpoint does not support ${request.method} ${request.url.split("?")[0]}; its CapabilityStatement (${fhirBasePath}/metadata) lists what it does.`,
              },
            ]),
          ),
      );
      register(fhir);
    },
    { prefix: fhirBasePath },
  );
}

const issueByStatus: Record<number, FhirIssueCode> = {
  400: "invalid",
  401: "login",
  403: "forbidden",
  404: "not-found",
  405: "not-supported",
  406: "not-supported",
  409: "conflict",
  412: "conflict",
  413: "too-costly",
  415: "not-supported",
  422: "processing",
  429: "throttled",
};

function asFhirError(error: FastifyError | FhirError | AppError, route: { fhirResourceType?: string } = {}): FhirError {
  if (error instanceof FhirError) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    // A resource sent in the body is named as FHIRPath names its elements: `ServiceRequest.subject`.
    const root =
      error.validationContext === "body" && route.fhirResourceType
        ? route.fhirResourceType
        : (error.validationContext ?? "request");
    const issues = error.validation.map((issue) => {
      const path = [root, ...issue.instancePath.split("/").filter(Boolean)].join(".");
      return { path, message: issue.message ?? "is invalid" };
    });
    const [first, ...rest] = issues;
    return new FhirError(400, "invalid", `${first?.path ?? "request"} ${first?.message ?? "is invalid"}`, {
      more: rest.map((issue) => ({
        severity: "error" as const,
        code: "invalid" as const,
        diagnostics: `${issue.path} ${issue.message}`,
        expression: [issue.path],
      })),
      ...(first ? { expression: [first.path] } : {}),
    });
  }
  if (error instanceof AppError) {
    return new FhirError(error.status, issueByStatus[error.status] ?? "exception", error.message, {
      headers: error.headers,
    });
  }
  const status = (error as FastifyError).statusCode;
  if (status && status >= 400 && status < 500) {
    return new FhirError(status, issueByStatus[status] ?? "invalid", error.message);
  }
  return new FhirError(500, "exception", "An internal error occurred.");
}

function bearerOf(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
}

/**
 * One FHIR route from its row of `fhirRoutes`: the bearer token is checked and the interaction's scope required
 * before the input is validated (a caller without access learns nothing of the input format), then the handler's
 * resource is sent as `application/fhir+json`.
 */
export function registerFhirRoute<R extends FhirRouteDefinition>(
  fhir: FastifyInstance,
  name: string,
  definition: R,
  handler: FhirRouteHandler<R>,
): void {
  if (!definition.path.startsWith(`${fhirBasePath}/`)) {
    throw new Error(`${name}: a FHIR route's path starts with ${fhirBasePath}/`);
  }
  const access = fhirAccessOf(definition);
  const schema: Record<string, unknown> = { summary: definition.summary, operationId: name, tags: ["fhir"] };
  if (definition.params) schema.params = definition.params;
  if (definition.querystring) schema.querystring = definition.querystring;
  if (definition.body) schema.body = definition.body;

  fhir.route({
    method: definition.method,
    url: definition.path.slice(fhirBasePath.length),
    schema,
    config: { routeName: name, patientData: definition.patientData, fhirResourceType: definition.resourceType },
    onRequest: async (request) => {
      if (access === "public") return;
      const frame = fhir.fhirFrame;
      const refuse = async (status: 401 | 403, reason: string, caller?: FhirCaller) => {
        await frame.onRefused(request, { status, reason, route: name, caller });
        return status === 401
          ? new FhirError(401, "login", reason, {
              headers: { "www-authenticate": bearerChallenge("invalid_token", reason) },
            })
          : new FhirError(403, "forbidden", reason, {
              headers: { "www-authenticate": bearerChallenge("insufficient_scope", reason) },
            });
      };
      const token = bearerOf(request);
      if (!token) {
        throw await refuse(401, "A bearer access token from this server's token endpoint is required.");
      }
      const caller = await frame.authenticate(token);
      if (!caller) throw await refuse(401, "The access token is unknown, expired or revoked; request a new one.");
      if (!scopesAllow(caller.scopes, access.resourceType, access.permission)) {
        throw await refuse(
          403,
          `The token's scopes do not allow this interaction: it needs system/${access.resourceType}.${access.permission}.`,
          caller,
        );
      }
      request.fhirCaller = caller;
    },
    handler: async (request, reply) => {
      const resource = await handler({
        params: request.params as FhirRouteInput<R>["params"],
        query: request.query as FhirRouteInput<R>["query"],
        body: request.body as FhirRouteInput<R>["body"],
        caller: request.fhirCaller as FhirRouteInput<R>["caller"],
        request,
        reply,
      });
      // A create answers 201, or 200 when it found the resource already there (a conditional create): the handler
      // says so with `reply.status`; otherwise the row's status.
      return reply
        .status(definition.successStatus ?? reply.statusCode)
        .type(fhirMediaType)
        .send(JSON.stringify(resource));
    },
  });
}
