import type { z } from "zod";
import type { Access } from "./access.js";

/**
 * One entry of the API route table: method, path, schemas and the access it requires. The server registers
 * handlers against these entries, the OpenAPI document is generated from them, and the authorization-matrix
 * test walks them.
 */
export type RouteDefinition = {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  summary: string;
  tags: string[];
  access: Access;
  /** Reads or writes patient data: every call is written to the audit log. */
  patientData?: boolean;
  /** What the `:id` path parameter names in that audit row's target: `case` unless said. */
  auditTarget?: string;
  params?: z.ZodObject;
  querystring?: z.ZodObject;
  /** Request headers the route reads (If-Match); validated like the rest of the input. */
  headers?: z.ZodObject;
  body?: z.ZodType;
  /** The `data` of a 2xx answer; the envelope is added by the server. `null` for 204. */
  response: z.ZodType | null;
  /**
   * `event-stream`: the 200 is a `text/event-stream` of server-sent events, each frame one value of `response`
   * (`{ event, data }`), with no envelope; it stays open until either side closes it. `pdf`: the 200 is the
   * document's bytes (`application/pdf`); `fhir-json`: a FHIR resource (`application/fhir+json`); `csv`: a
   * `text/csv` file (UTF-8, header row) — none of them in the envelope (errors still are). Default `json`.
   */
  responseKind?: "json" | "event-stream" | "pdf" | "fhir-json" | "csv";
  successStatus?: 200 | 201 | 204;
};

/**
 * Checks an entry against `RouteDefinition` while keeping its literal type, so each route's schemas stay precise
 * for the server's handlers and the web's calls.
 */
export function route<const T extends RouteDefinition>(definition: T): T {
  return definition;
}
