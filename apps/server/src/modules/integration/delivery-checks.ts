import { getFindingDeliveryHealth, stuckPendingMinutes } from "../findings/finding-deliveries-service.js";
import { databaseHint, fail, type IntegrationCheck, pass, warn } from "./integration-check.js";

/**
 * The critical findings' messages (PRODUCT.md §11) as the delivery queue sees them: what failed for good in the last
 * day, what waits for a retry, and how long the oldest message has waited. Ok passes; a warning (messages waiting for
 * a retry, or a wait over a minute) is the check's warning state, never a green pass; failing fails. `details.health`
 * carries which of the three it is.
 */

const transportHint =
  "Open the failed finding's messages on its case to read each error, then fix the transport named there " +
  "(SMTP_URL for email, SMS_WEBHOOK_URL for SMS) and check every instance's log for the worker's passes.";

export const findingDeliveries: IntegrationCheck = {
  id: "finding-deliveries",
  title: "Critical finding messages",
  purpose:
    "The critical findings' emails and SMS leave Vigil: none failed in the last 24 hours, and none is left waiting.",
  async run({ database, messages }) {
    const health = await getFindingDeliveryHealth({ db: database.db }, new Date());
    const details = {
      health: health.status,
      failedLastDay: health.failedLastDay,
      waitingRetries: health.waitingRetries,
      pending: health.pending,
      oldestPendingMinutes: health.oldestPendingMinutes,
      emailTransport: messages.transportFor("email"),
      smsTransport: messages.transportFor("sms"),
    };
    const waiting =
      health.oldestPendingMinutes === null
        ? ""
        : ` The oldest unsent message has waited ${health.oldestPendingMinutes} min.`;
    if (health.status === "failing") {
      const what =
        health.failedLastDay > 0
          ? `${health.failedLastDay} message(s) failed after every attempt in the last 24 hours.`
          : `A message has waited over ${stuckPendingMinutes} minutes.`;
      const hint =
        health.failedLastDay > 0
          ? transportHint
          : "No instance seems to be sending: check FINDING_WORKER_SECONDS (0 turns an instance's worker off) " +
            "and the instances' logs.";
      return fail(`${what}${waiting}`, hint, details);
    }
    if (health.status === "warning") {
      const what =
        health.waitingRetries > 0
          ? `${health.waitingRetries} message(s) wait for a retry after a failed attempt.`
          : "Messages are waiting to be sent.";
      return warn(`${what}${waiting}`, transportHint, details);
    }
    const outbox = [details.emailTransport, details.smsTransport].includes("outbox")
      ? " Channels without a transport keep messages in the outbox table."
      : "";
    return pass(
      `No message failed in the last 24 hours and none waits for a retry (${health.pending} being sent).${outbox}`,
      details,
    );
  },
  stalled: () => ({ waitingFor: "the database to count the findings' messages", hint: databaseHint }),
};
