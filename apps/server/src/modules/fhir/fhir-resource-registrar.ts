import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";

/** Registers rows of `fhirRoutes` with `registerFhirRoute` inside the frame (listed in `fhirResourceRegistrars`). */
export type FhirResourceRegistrar = (fhir: FastifyInstance, db: Db) => void;
