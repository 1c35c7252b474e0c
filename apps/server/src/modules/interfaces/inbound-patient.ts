import type { InterfacePatient } from "../cases/interface-cases-service.js";
import type { InboundProfile } from "./inbound-fields.js";
import { InboundProblem, type InboundReader, problemAt } from "./inbound-fields.js";

type PatientSex = InterfacePatient["sex"];

/** PID-8 (table 0001) → Vigil's sex; an unknown code reads as unknown rather than refusing the order. */
function sexOf(code: string): PatientSex {
  switch (code.toUpperCase()) {
    case "F":
      return "female";
    case "M":
      return "male";
    case "O":
    case "A":
    case "N":
    case "X":
      return "other";
    default:
      return "unknown";
  }
}

/**
 * The patient of a message (PID, PV1-3): the MRN is PID-3.1 of the identifier whose PID-3.4 is the profile's
 * assigning authority. An MRN of another authority is refused (AE 204): matching it to this client's patients
 * could merge two people.
 */
export function readPatient(reader: InboundReader, profile: InboundProfile): InterfacePatient {
  const mrn = reader.required({ segment: "PID", field: 3, component: 1 }, "patient identifier (MRN)");
  const authority = reader.value({ segment: "PID", field: 3, component: 4 });
  if (!authority) {
    throw new InboundProblem(
      "error",
      101,
      `PID-3.4 (the MRN's assigning authority) is required; this interface expects ${profile.mrnAssigningAuthority}.`,
      problemAt({ segment: "PID", field: 3, component: 4 }),
    );
  }
  if (authority.toLowerCase() !== profile.mrnAssigningAuthority.toLowerCase()) {
    throw new InboundProblem(
      "error",
      204,
      `PID-3.4 is "${authority.slice(0, 60)}"; this interface takes MRNs assigned by ${profile.mrnAssigningAuthority}.`,
      problemAt({ segment: "PID", field: 3, component: 4 }),
    );
  }
  const lastName = reader.required({ segment: "PID", field: 5, component: 1 }, "patient family name");
  const firstName = reader.required({ segment: "PID", field: 5, component: 2 }, "patient given name");
  for (const [value, component] of [
    [mrn, 1],
    [firstName, 2],
    [lastName, 1],
  ] as const) {
    if (value.length > 100 || /[\r\n\t]/.test(value)) {
      throw new InboundProblem(
        "error",
        102,
        "A patient identifier or name is longer than 100 characters or spans lines.",
        problemAt({ segment: "PID", field: component === 2 ? 5 : 3, component }),
      );
    }
  }
  return {
    mrn,
    firstName,
    lastName,
    dateOfBirth: reader.date({ segment: "PID", field: 7 }, "date of birth"),
    sex: sexOf(reader.value({ segment: "PID", field: 8 })),
    location: {
      unit: reader.value({ segment: "PV1", field: 3, component: 1 }).slice(0, 100) || null,
      room: reader.value({ segment: "PV1", field: 3, component: 2 }).slice(0, 50) || null,
      bed: reader.value({ segment: "PV1", field: 3, component: 3 }).slice(0, 50) || null,
    },
  };
}

/** The visit (encounter) number from where the profile says: PV1-19 or PID-18. */
export function readVisitNumber(reader: InboundReader, profile: InboundProfile): string | null {
  const address =
    profile.visitNumberSource === "PID-18"
      ? { segment: "PID", field: 18, component: 1 }
      : { segment: "PV1", field: 19, component: 1 };
  return reader.value(address) || null;
}

/** PV1-3 as one line for the order ("4W ICU, room 12, bed B"). */
export function locationText(patient: InterfacePatient): string | null {
  const { unit, room, bed } = patient.location;
  const parts = [unit, room ? `room ${room}` : null, bed ? `bed ${bed}` : null].filter(Boolean);
  return parts.length > 0 ? parts.join(", ") : null;
}
