import { defineJob, JobFailedForGood, type RetryPolicy } from "../../jobs/job-definition.js";
import { fhirPushJobKind } from "../interfaces/outbound-service.js";
import { type FhirPushSettings, sendFhirPush } from "./fhir-push-service.js";

/** 10 tries, 30 s doubling to 30 min, like the HL7 result: about 3 h of a server down before the push is failed. */
export const defaultFhirPushRetry: RetryPolicy = { limit: 10, backoff: { baseMs: 30_000, maxMs: 30 * 60_000 } };

/**
 * `fhir-push`: one report version to the hospital's FHIR server. The claim runs one try at a time across instances;
 * an acknowledged row is never sent again, and the Bundle's conditional PUTs make a try repeated after a lost answer
 * update the same resources (only the Binary is created again). A refusal ends the job failed at once; the log's
 * "Send again" sets it waiting.
 */
export function fhirPushJob(settings: FhirPushSettings, retry: RetryPolicy = defaultFhirPushRetry) {
  return defineJob({
    retry,
    // Discovery, token and the Bundle (a PDF of a few hundred kB), with room to record the answer.
    timeoutMs: settings.requestTimeoutMs * 3 + 30_000,
    maxWaitMs: 60 * 60_000,
    handle: async ({ messageId }, { db, log, attempt, signal }) => {
      const outcome = await sendFhirPush(db, settings, messageId, { final: attempt >= retry.limit, signal });
      if (outcome.kind === "refused") {
        log.error({ messageId, error: outcome.error }, "the hospital's FHIR server refused a pushed report");
        throw new JobFailedForGood(outcome.error);
      }
      if (outcome.kind === "not-delivered") throw new Error(outcome.error);
    },
    ...fhirPushJobKind,
  });
}
