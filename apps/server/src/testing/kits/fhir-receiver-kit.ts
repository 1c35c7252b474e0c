import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { getStatus, parseSearchRequest } from "@medplum/core";
import { FhirRouter, MemoryRepository } from "@medplum/fhir-router";
import { createRemoteJWKSet, type JWTPayload, jwtVerify } from "jose";
import { medplumErrors } from "./fhir-validators-kit.js";

/**
 * A hospital's FHIR server the team did not write, for push tests: Medplum's `FhirRouter` over its in-memory
 * repository (transactions on), behind a small HTTP wrapper, and a token endpoint that verifies Vigil's
 * `private_key_jwt` assertion with `jose` against Vigil's published JWKS URL (fetched over HTTP, as a hospital
 * would). `mode` makes it refuse: the token, or the Bundle with a 5xx or a 4xx.
 */

export type ReceiverMode = { token: "issue" | "refuse"; fhir: "accept" | "down" | "refuse" };

export type FhirReceiver = {
  baseUrl: string;
  tokenUrl: string;
  repo: MemoryRepository;
  mode: ReceiverMode;
  /** Claims of every assertion verified, with its protected header. */
  assertions: { header: { alg: string; kid?: string }; claims: JWTPayload }[];
  /** How many Bundles reached the server (whatever it answered). */
  bundles: number;
  search(query: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
};

async function bodyOf(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

function send(response: ServerResponse, status: number, body: unknown, type = "application/fhir+json"): void {
  response.writeHead(status, { "content-type": type });
  response.end(JSON.stringify(body));
}

const outcome = (code: string, diagnostics: string) => ({
  resourceType: "OperationOutcome",
  issue: [{ severity: "error", code, diagnostics }],
});

export async function startFhirReceiver(options: { jwksUrl: string; clientId: string }): Promise<FhirReceiver> {
  // Medplum's searches need the R4 search parameters indexed; the validators kit loads them.
  medplumErrors({ resourceType: "Basic", code: { text: "index the definitions" } });
  const router = new FhirRouter();
  const repo = new MemoryRepository();
  const jwks = createRemoteJWKSet(new URL(options.jwksUrl));
  const tokens = new Set<string>();
  const jtis = new Set<string>();
  const receiver = {
    repo,
    mode: { token: "issue", fhir: "accept" } as ReceiverMode,
    assertions: [] as FhirReceiver["assertions"],
    bundles: 0,
  };
  let tokenUrl = "";

  const server = createServer(async (request, response) => {
    const path = new URL(request.url ?? "/", "http://receiver").pathname;
    const body = await bodyOf(request);
    if (request.method === "GET" && path === "/fhir/.well-known/smart-configuration") {
      send(
        response,
        200,
        { token_endpoint: tokenUrl, token_endpoint_auth_methods_supported: ["private_key_jwt"] },
        "application/json",
      );
      return;
    }
    if (request.method === "POST" && path === "/auth/token") {
      const form = new URLSearchParams(body);
      try {
        if (receiver.mode.token === "refuse") throw new Error("this client is not registered here");
        const { payload, protectedHeader } = await jwtVerify(form.get("client_assertion") ?? "", jwks, {
          issuer: options.clientId,
          subject: options.clientId,
          audience: tokenUrl,
          algorithms: ["ES384", "RS384"],
          maxTokenAge: "5 minutes",
        });
        if (!payload.jti || jtis.has(payload.jti)) throw new Error("jti missing or used before");
        jtis.add(payload.jti);
        receiver.assertions.push({ header: protectedHeader as { alg: string; kid?: string }, claims: payload });
        const token = randomUUID();
        tokens.add(token);
        send(
          response,
          200,
          { access_token: token, token_type: "bearer", expires_in: 300, scope: form.get("scope") },
          "application/json",
        );
      } catch (error) {
        send(
          response,
          401,
          { error: "invalid_client", error_description: (error as Error).message },
          "application/json",
        );
      }
      return;
    }
    if (request.method === "POST" && path === "/fhir") {
      const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
      if (!token || !tokens.has(token)) {
        send(response, 401, outcome("login", "no valid token"));
        return;
      }
      receiver.bundles += 1;
      if (receiver.mode.fhir === "down") {
        send(response, 503, outcome("transient", "the server is restarting"));
        return;
      }
      if (receiver.mode.fhir === "refuse") {
        send(response, 422, outcome("business-rule", "no such patient in this hospital"));
        return;
      }
      const [result, resource] = await router.handleRequest(
        {
          method: "POST",
          url: "",
          pathname: "",
          body: JSON.parse(body),
          params: {},
          query: {},
          config: { transactions: true },
        },
        repo,
      );
      send(response, getStatus(result), resource ?? result);
      return;
    }
    send(response, 404, outcome("not-found", `${request.method} ${path}`));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  tokenUrl = `${origin}/auth/token`;
  return Object.assign(receiver, {
    baseUrl: `${origin}/fhir`,
    tokenUrl,
    search: async (query: string) =>
      (await repo.searchResources(parseSearchRequest(query))) as unknown as Record<string, unknown>[],
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
