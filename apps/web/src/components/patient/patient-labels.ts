import type { PatientDetails } from "@vigil/contract";

/** A patient's sex in words, on every screen that shows or asks it. */
export const sexLabels: Record<PatientDetails["sex"], string> = {
  female: "Female",
  male: "Male",
  other: "Other",
  unknown: "Unknown",
};
