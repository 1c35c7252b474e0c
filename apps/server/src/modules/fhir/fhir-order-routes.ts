import { fhirRoutes } from "@vigil/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Db } from "../../db/client.js";
import { FhirError } from "../../fhir/fhir-errors.js";
import { type FhirCaller, registerFhirRoute } from "../../fhir/fhir-frame.js";
import {
  type CreateAnswer,
  cancelTask,
  createServiceRequest,
  createTask,
  type FhirOrderer,
  recordRefusedCreate,
} from "./fhir-order-service.js";
import type { FhirSettings } from "./fhir-resource-common.js";
import type { FhirResourceRegistrar } from "./fhir-resource-registrar.js";

/**
 * The create rows of the FHIR route table (`fhirCreate…`, from the contract's `fhir-order-routes.ts`): a hospital's
 * order and its Task, within the token's client. 201 with `Location` for a new resource, 200 for one found again.
 */

function ordererOf(caller: FhirCaller, request: FastifyRequest): FhirOrderer {
  return { clientId: caller.clientId, systemClientId: caller.systemClientId, ip: request.ip };
}

export function fhirOrderRegistrar(settings: FhirSettings): FhirResourceRegistrar {
  const base = `${settings.publicUrl}/fhir/R4`;
  return (fhir: FastifyInstance, db: Db) => {
    const answer = async (
      type: "ServiceRequest" | "Task",
      orderer: FhirOrderer,
      body: unknown,
      reply: { status: (code: number) => unknown; header: (name: string, value: string) => unknown },
      create: () => Promise<CreateAnswer>,
    ) => {
      try {
        const created = await create();
        const version = (created.resource.meta as { versionId?: string } | undefined)?.versionId;
        reply.status(created.status);
        if (created.status === 201)
          reply.header("location", `${base}/${type}/${created.resource.id}${version ? `/_history/${version}` : ""}`);
        else reply.header("content-location", `${base}/${type}/${created.resource.id}`);
        return created.resource;
      } catch (error) {
        if (error instanceof FhirError && error.status < 500) await recordRefusedCreate(db, orderer, type, body, error);
        throw error;
      }
    };
    registerFhirRoute(
      fhir,
      "fhirCreateServiceRequest",
      fhirRoutes.fhirCreateServiceRequest,
      async ({ body, caller, request, reply }) => {
        const orderer = ordererOf(caller, request);
        const ifNoneExist = request.headers["if-none-exist"];
        return answer("ServiceRequest", orderer, body, reply, () =>
          createServiceRequest(
            db,
            settings,
            orderer,
            body,
            Array.isArray(ifNoneExist) ? ifNoneExist.join("&") : ifNoneExist,
          ),
        );
      },
    );
    registerFhirRoute(fhir, "fhirCreateTask", fhirRoutes.fhirCreateTask, async ({ body, caller, request, reply }) => {
      const orderer = ordererOf(caller, request);
      return answer("Task", orderer, body, reply, () => createTask(db, settings, orderer, body));
    });
    registerFhirRoute(fhir, "fhirUpdateTask", fhirRoutes.fhirUpdateTask, async ({ body, caller, params, request }) => {
      const orderer = ordererOf(caller, request);
      try {
        return await cancelTask(db, settings, orderer, params.id, body);
      } catch (error) {
        if (error instanceof FhirError && error.status < 500 && error.status !== 404) {
          await recordRefusedCreate(db, orderer, "Task", body, error, "fhir.update");
        }
        throw error;
      }
    });
  };
}
