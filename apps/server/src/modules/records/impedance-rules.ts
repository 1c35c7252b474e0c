import { type CaseStage, type Electrode, recommendedImpedanceKohm } from "@vigil/contract";

/** Without a client protocol: digital systems accept up to 10 kΩ (DOMAIN.md §1.2). */
export const defaultImpedanceThresholdKohm = 10;
/** Without a client protocol: no guideline fixes the interval; daily is the common practice (DOMAIN.md §1.2). */
export const defaultImpedanceIntervalHours = 24;

/**
 * Electrodes above the threshold are flagged; from the recommended 5 kΩ up to the threshold they are a caution
 * (ACNS recommends below 5). A protocol whose threshold is 5 or less leaves no caution band.
 */
export function judgeImpedance(
  values: readonly { electrode: Electrode; kohm: number }[],
  thresholdKohm: number,
): { flagged: Electrode[]; caution: Electrode[] } {
  const flagged = values.filter((value) => value.kohm > thresholdKohm).map((value) => value.electrode);
  const caution =
    thresholdKohm <= recommendedImpedanceKohm
      ? []
      : values
          .filter((value) => value.kohm >= recommendedImpedanceKohm && value.kohm <= thresholdKohm)
          .map((value) => value.electrode);
  return { flagged, caution };
}

/**
 * When the next check is due: the protocol's interval after the last check, or after the recording (else the
 * monitoring) started when there has been none. Only a case in monitoring has checks due.
 */
export function impedanceDue(input: {
  stage: CaseStage;
  lastCheckedAt: Date | null;
  recordingStartedAt: Date | null;
  monitoringStartedAt: Date | null;
  intervalHours: number;
  now: Date;
}): { dueAt: Date | null; overdue: boolean } {
  if (input.stage !== "monitoring") return { dueAt: null, overdue: false };
  const from = input.lastCheckedAt ?? input.recordingStartedAt ?? input.monitoringStartedAt;
  if (!from) return { dueAt: null, overdue: false };
  const dueAt = new Date(from.getTime() + input.intervalHours * 3_600_000);
  return { dueAt, overdue: input.now.getTime() > dueAt.getTime() };
}
