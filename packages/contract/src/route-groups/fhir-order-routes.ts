import { z } from "zod";
import { fhirBasePath, fhirRoute } from "../fhir-route-definition.js";

/**
 * Orders in (docs/design/FHIR.md, "Orders in"): a hospital's system creates the order as a `ServiceRequest` and asks
 * Vigil to fulfil it with a `Task`, HL7 Clinical Order Workflows' shape. These schemas hold the structure every
 * order needs (a 400 naming the element); what depends on Vigil's data (the MRN's system, a known patient, a placer
 * number already used) is checked by the server as a 422. Elements not named here are accepted and ignored.
 */

const text = (max: number) => z.string().trim().min(1).max(max);

const codingSchema = z.looseObject({
  system: z.string().max(500).optional(),
  code: z.string().max(200).optional(),
  display: z.string().max(500).optional(),
});

const codeableConceptSchema = z.looseObject({
  coding: z.array(codingSchema).max(20).optional(),
  text: z.string().max(2000).optional(),
});

export const fhirIdentifierInputSchema = z.looseObject({
  type: codeableConceptSchema.optional(),
  system: z.string().max(500).optional(),
  value: text(100),
});

const referenceSchema = z.looseObject({
  reference: z.string().max(500).optional(),
  identifier: fhirIdentifierInputSchema.optional(),
  display: z.string().max(500).optional(),
});

const humanNameSchema = z.looseObject({
  family: z.string().max(100).optional(),
  given: z.array(z.string().max(100)).max(5).optional(),
  text: z.string().max(200).optional(),
});

/** A resource carried inside the order (`contained`): the patient, the requester. */
const containedSchema = z.looseObject({
  resourceType: z.string().max(64),
  id: z.string().max(64).optional(),
  identifier: z.array(fhirIdentifierInputSchema).max(20).optional(),
  name: z.array(humanNameSchema).max(5).optional(),
  gender: z.enum(["male", "female", "other", "unknown"]).optional(),
  birthDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, "is a full date, YYYY-MM-DD")
    .optional(),
});

export const fhirServiceRequestInputSchema = z.looseObject({
  resourceType: z.literal("ServiceRequest"),
  contained: z.array(containedSchema).max(10).optional(),
  /** The placer order number: the identifier typed PLAC, or the only one. */
  identifier: z.array(fhirIdentifierInputSchema).min(1).max(10),
  status: z.literal("active"),
  intent: z.enum(["order", "original-order"]),
  priority: z.enum(["routine", "urgent", "asap", "stat"]).optional(),
  code: codeableConceptSchema.optional(),
  subject: referenceSchema,
  encounter: referenceSchema.optional(),
  requester: referenceSchema.optional(),
  reasonCode: z.array(codeableConceptSchema).max(10).optional(),
  reasonReference: z.array(referenceSchema).max(10).optional(),
  note: z
    .array(z.looseObject({ text: z.string().max(2000) }))
    .max(10)
    .optional(),
});

export const fhirTaskInputSchema = z.looseObject({
  resourceType: z.literal("Task"),
  identifier: z.array(fhirIdentifierInputSchema).max(10).optional(),
  status: z.literal("requested"),
  intent: z.literal("order"),
  priority: z.enum(["routine", "urgent", "asap", "stat"]).optional(),
  /** `ServiceRequest/<id>`: the order to fulfil, created before. */
  focus: z.looseObject({ reference: z.string().max(500) }),
  basedOn: z.array(referenceSchema).max(10).optional(),
  for: referenceSchema.optional(),
  owner: referenceSchema.optional(),
  requester: referenceSchema.optional(),
});

/** The hospital cancels its order: the Task it created, as sent back with `status: cancelled` (the only change taken). */
export const fhirTaskCancelSchema = z.looseObject({
  resourceType: z.literal("Task"),
  id: z.string().min(1).max(64),
  status: z.literal("cancelled"),
  statusReason: codeableConceptSchema.optional(),
});

export type FhirTaskCancel = z.output<typeof fhirTaskCancelSchema>;
export type FhirServiceRequestInput = z.output<typeof fhirServiceRequestInputSchema>;
export type FhirTaskInput = z.output<typeof fhirTaskInputSchema>;

export const fhirOrderRoutes = {
  fhirCreateServiceRequest: fhirRoute({
    method: "POST",
    path: `${fhirBasePath}/ServiceRequest`,
    summary:
      "Create an order for long-term EEG monitoring: Vigil opens the case in intake (If-None-Exist on the placer identifier makes a retry harmless)",
    interaction: "create",
    resourceType: "ServiceRequest",
    patientData: true,
    body: fhirServiceRequestInputSchema,
  }),
  fhirCreateTask: fhirRoute({
    method: "POST",
    path: `${fhirBasePath}/Task`,
    summary:
      "Ask Vigil to fulfil an order created before: the Task (status requested) whose focus is the ServiceRequest",
    interaction: "create",
    resourceType: "Task",
    patientData: true,
    body: fhirTaskInputSchema,
  }),
  fhirUpdateTask: fhirRoute({
    method: "PUT",
    path: `${fhirBasePath}/Task/:id`,
    summary:
      "Cancel an order: the Task sent back with status cancelled (and statusReason); taken while the case is in intake",
    interaction: "update",
    resourceType: "Task",
    patientData: true,
    params: z.object({ id: z.string().min(1).max(64) }),
    body: fhirTaskCancelSchema,
  }),
} as const;
