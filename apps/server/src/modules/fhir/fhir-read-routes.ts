import { type FhirRouteDefinition, fhirRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import type { FhirCaller } from "../../fhir/fhir-frame.js";
import { registerFhirRoute } from "../../fhir/fhir-frame.js";
import type { ReadableType } from "./fhir-read-search.js";
import { type FhirReader, readFhirResource, searchFhirResources } from "./fhir-read-service.js";
import type { FhirSettings } from "./fhir-resource-common.js";
import type { FhirResourceRegistrar } from "./fhir-resource-registrar.js";

/**
 * The read and search rows of the FHIR route table (`fhirRead…` and `fhirSearch…`, from the contract's
 * `fhir-read-routes.ts`), each one call of the read service within the token's client.
 */
export const fhirReadRows: [string, FhirRouteDefinition][] = Object.entries(fhirRoutes).filter(([name]) =>
  /^fhir(Read|Search)[A-Z]/.test(name),
);

function readerOf(settings: FhirSettings, caller: FhirCaller, ip: string): FhirReader {
  return {
    clientId: caller.clientId,
    recipient: `Hospital system ${caller.systemClientId}`,
    systemClientId: caller.systemClientId,
    ip,
    baseUrl: `${settings.publicUrl}/fhir/R4`,
  };
}

export function fhirReadRegistrar(settings: FhirSettings): FhirResourceRegistrar {
  return (fhir: FastifyInstance, db: Db) => {
    for (const [name, row] of fhirReadRows) {
      const type = row.resourceType as ReadableType;
      if (row.interaction === "read") {
        registerFhirRoute(fhir, name, row, async ({ caller, request }) => {
          const { id } = request.params as { id: string };
          return readFhirResource(db, settings, readerOf(settings, caller, request.ip), type, id);
        });
      } else {
        registerFhirRoute(fhir, name, row, async ({ caller, request }) =>
          searchFhirResources(
            db,
            settings,
            readerOf(settings, caller, request.ip),
            type,
            request.query as Record<string, unknown>,
          ),
        );
      }
    }
  };
}
