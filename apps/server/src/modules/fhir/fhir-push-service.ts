import { recordAudit } from "../../audit/record-audit.js";
import type { Db } from "../../db/client.js";
import { enqueueJob } from "../../jobs/job-queue.js";
import { fhirPushJobKind, fhirPushMessageType } from "../interfaces/outbound-service.js";
import { recordSystemDisclosures } from "../reports/disclosures-service.js";
import type { IssuedReportVersion } from "../reports/reports-service.js";
import { buildPushBundle } from "./fhir-push-bundle.js";
import { signPushAssertion } from "./fhir-push-keys.js";
import { findPushMessage, insertPushMessage, markPushSending, settlePushMessage } from "./fhir-push-repository.js";
import { findEnabledPushSettings } from "./fhir-push-settings-service.js";
import { pushFactsOfVersion } from "./fhir-read-service.js";
import type { FhirSettings } from "./fhir-resource-common.js";

/**
 * Signed reports pushed to the hospital's FHIR server (docs/design/FHIR.md, "Push"). In the signing transaction a
 * row of the message log and a `fhir-push` job; each try then gets a token from the hospital's token endpoint with
 * Vigil's own signed assertion (a token per try: nothing is cached in one instance's memory) and posts the version's
 * `transaction` Bundle. 2xx: acknowledged, disclosed once. A 4xx other than 408/429 (or a token refused): failed at
 * once with the server's words — the same Bundle would be refused again; it is sent again from the message log. 5xx,
 * 408, 429, no answer: tried again with back-off; the last try marks it failed.
 */

export type FhirPushSettings = FhirSettings & {
  sendingFacility: string;
  /** Milliseconds for each HTTP exchange (discovery, token, Bundle). */
  requestTimeoutMs: number;
};

export type PushOutcome =
  | { kind: "acknowledged" | "already-acknowledged" | "gone" }
  | { kind: "refused"; error: string }
  | { kind: "not-delivered"; error: string; final: boolean };

/** In the signing (or addendum) transaction: the version's push row and job, when the client's push is on. */
export async function queueFhirPush(
  settings: Pick<FhirPushSettings, "sendingFacility">,
  tx: Db,
  issued: IssuedReportVersion,
): Promise<string | undefined> {
  const { row, inputs } = issued;
  const push = await findEnabledPushSettings(tx, row.clientId);
  if (!push) return undefined;
  const inserted = await insertPushMessage(tx, {
    direction: "outbound",
    clientId: row.clientId,
    messageType: fhirPushMessageType,
    controlId: row.id,
    sendingApplication: "VIGIL",
    sendingFacility: settings.sendingFacility,
    patientMrn: inputs.patient.mrn,
    orderNumber: null,
    caseId: row.caseId,
    reportVersionId: row.id,
    text: `transaction Bundle for ${push.baseUrl}, report version ${row.id} (built at each try)`,
    status: "queued",
    attempts: 0,
  });
  if (!inserted) return undefined;
  await enqueueJob(tx, fhirPushJobKind, { messageId: inserted.id }, { uniqueKey: `fhir-push:${inserted.id}` });
  return inserted.id;
}

/** An HTTP failure that a later try may mend (`retry`) or not. */
class PushError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
    readonly status: number | null = null,
  ) {
    super(message);
  }
}

function retriable(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/** Each HTTP exchange's time limit, and the job's signal (aborted at the job's timeout or when the instance stops). */
type Limit = { timeoutMs: number; signal?: AbortSignal | undefined };

async function exchange(url: string, init: RequestInit, limit: Limit, what: string) {
  try {
    const signals = [AbortSignal.timeout(limit.timeoutMs), ...(limit.signal ? [limit.signal] : [])];
    // biome-ignore lint/plugin/leading-spread-then-keys: signal and redirect are RequestInit fields too: ours win
    const response = await fetch(url, { ...init, signal: AbortSignal.any(signals), redirect: "error" });
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    return { status: response.status, body };
  } catch (error) {
    const reason = error instanceof Error && error.name === "TimeoutError" ? "no answer in time" : "could not connect";
    throw new PushError(`${what}: ${reason} (${new URL(url).origin}).`, true);
  }
}

/** The issues of an OperationOutcome in a line (severity, code, diagnostics or details), at most 500 characters. */
export function outcomeSummary(body: unknown): string {
  const issues = (body as { resourceType?: string; issue?: unknown[] } | undefined)?.issue;
  if (!Array.isArray(issues) || issues.length === 0) return "no OperationOutcome";
  return issues
    .map((issue) => {
      const { severity, code, diagnostics, details } = issue as Record<string, unknown>;
      const words = (diagnostics as string | undefined) ?? (details as { text?: string } | undefined)?.text ?? "";
      return `${severity ?? "?"} ${code ?? "?"}${words ? `: ${words}` : ""}`;
    })
    .join("; ")
    .slice(0, 500);
}

async function tokenUrlOf(push: { baseUrl: string; tokenUrl: string | null }, limit: Limit): Promise<string> {
  if (push.tokenUrl) return push.tokenUrl;
  const { status, body } = await exchange(
    `${push.baseUrl}/.well-known/smart-configuration`,
    { headers: { accept: "application/json" } },
    limit,
    "SMART configuration",
  );
  const found = (body as { token_endpoint?: unknown } | undefined)?.token_endpoint;
  if (status !== 200 || typeof found !== "string") {
    throw new PushError(
      `The hospital's SMART configuration (${push.baseUrl}/.well-known/smart-configuration) answered ${status} without a token_endpoint.`,
      retriable(status),
      status,
    );
  }
  return found;
}

async function accessTokenOf(
  db: Db,
  push: { baseUrl: string; tokenUrl: string | null; systemClientId: string; scopes: string },
  limit: Limit,
): Promise<string> {
  const tokenUrl = await tokenUrlOf(push, limit);
  const form = new URLSearchParams({
    grant_type: "client_credentials",
    client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
    client_assertion: await signPushAssertion(db, push.systemClientId, tokenUrl),
    scope: push.scopes,
  });
  const { status, body } = await exchange(
    tokenUrl,
    {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", accept: "application/json" },
      body: form.toString(),
    },
    limit,
    "Token endpoint",
  );
  const token = (body as { access_token?: unknown } | undefined)?.access_token;
  if (status === 200 && typeof token === "string") return token;
  const { error, error_description: description } = (body ?? {}) as Record<string, unknown>;
  throw new PushError(
    `The hospital's token endpoint refused Vigil (${status}${error ? ` ${String(error)}` : ""})${description ? `: ${String(description).slice(0, 300)}` : ""}.`,
    retriable(status),
    status,
  );
}

/** What the log keeps of a transaction-response: each entry's status and location. */
function responseSummary(body: unknown): string {
  const entries = (body as { entry?: { response?: { status?: string; location?: string } }[] } | undefined)?.entry;
  if (!Array.isArray(entries)) return "no transaction-response Bundle";
  return entries.map((entry) => `${entry.response?.status ?? "?"} ${entry.response?.location ?? ""}`.trim()).join("\r");
}

async function settle(
  db: Db,
  id: string,
  outcome: PushOutcome,
  values: { ackCode: string | null; ack: string | null },
) {
  const now = new Date();
  const status =
    outcome.kind === "acknowledged"
      ? "acknowledged"
      : outcome.kind === "refused" || (outcome.kind === "not-delivered" && outcome.final)
        ? "failed"
        : "queued";
  return settlePushMessage(db, id, {
    status,
    ackCode: values.ackCode,
    ack: values.ack,
    error: outcome.kind === "refused" || outcome.kind === "not-delivered" ? outcome.error : null,
    processedAt: status === "queued" ? null : now,
  });
}

/** One try of a version's push (the `fhir-push` job's handler). */
export async function sendFhirPush(
  db: Db,
  settings: FhirPushSettings,
  messageId: string,
  options: { final: boolean; signal?: AbortSignal },
): Promise<PushOutcome> {
  const message = await findPushMessage(db, messageId, fhirPushMessageType);
  if (!message?.clientId || !message.reportVersionId) return { kind: "gone" };
  if (message.status === "acknowledged") return { kind: "already-acknowledged" };
  const push = await findEnabledPushSettings(db, message.clientId);
  if (!push) {
    const outcome: PushOutcome = {
      kind: "not-delivered",
      error: "The client's FHIR push is off now; the report was not sent.",
      final: options.final,
    };
    await settle(db, messageId, outcome, { ackCode: null, ack: null });
    return outcome;
  }
  const facts = await pushFactsOfVersion(db, settings, message.clientId, message.reportVersionId);
  if (!facts) return { kind: "gone" };
  const { bundle, summary } = buildPushBundle(settings, facts.version, facts.report, facts.mrn, new Date());
  await markPushSending(db, messageId);
  let outcome: PushOutcome;
  let ackCode: string | null = null;
  let ack: string | null = null;
  try {
    const limit = { timeoutMs: settings.requestTimeoutMs, signal: options.signal };
    const token = await accessTokenOf(db, push, limit);
    const { status, body } = await exchange(
      push.baseUrl,
      {
        method: "POST",
        headers: {
          "content-type": "application/fhir+json",
          accept: "application/fhir+json",
          authorization: `Bearer ${token}`,
        },
        body: JSON.stringify(bundle),
      },
      limit,
      "FHIR server",
    );
    ackCode = String(status);
    if (status >= 200 && status < 300) {
      outcome = { kind: "acknowledged" };
      ack = responseSummary(body);
    } else {
      ack = outcomeSummary(body);
      const error = `The hospital's FHIR server answered ${status}: ${ack}`;
      outcome = retriable(status) ? { kind: "not-delivered", error, final: options.final } : { kind: "refused", error };
    }
  } catch (error) {
    if (!(error instanceof PushError)) throw error;
    ackCode = error.status === null ? null : String(error.status);
    outcome = error.retry
      ? { kind: "not-delivered", error: error.message, final: options.final }
      : { kind: "refused", error: error.message };
  }
  await db.transaction(async (tx) => {
    const changed = await settle(tx, messageId, outcome, { ackCode, ack });
    if (changed && outcome.kind === "acknowledged") {
      await recordSystemDisclosures(
        tx,
        [facts.disclosure],
        { recipient: `Hospital FHIR server ${push.baseUrl}`, ip: null },
        "fhir-pushed",
      );
    }
    if (outcome.kind !== "not-delivered" || outcome.final) {
      await recordAudit(tx, {
        action: "fhir.push",
        outcome: outcome.kind === "acknowledged" ? "success" : "failure",
        actor: { sub: null, username: "fhir-push" },
        target: { type: "case", id: message.caseId ?? message.clientId ?? messageId },
        details: {
          messageId,
          reportId: message.reportVersionId,
          baseUrl: push.baseUrl,
          status: ackCode,
          entries: summary.split("\r").length - 2,
        },
      });
    }
  });
  return outcome;
}
