import {
  type AccessGroup,
  accessGroups,
  type Case,
  caseTransitionRules,
  groupPermissions,
  type TransitionResult,
} from "@vigil/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cases, caseTransitions } from "../../db/schema.js";
import {
  auditRows,
  caseIn,
  createClient,
  openCase,
  type Team,
  teamFor,
  unknownId,
} from "../../testing/kits/cases-kit.js";
import { sampleProtocol } from "../../testing/kits/clients-kit.js";
import {
  createItem,
  minutesAgo,
  sampleBillingNote,
  sampleInterpretation,
  sampleTimeLog,
} from "../../testing/kits/records-kit.js";
import { storeSignedReport } from "../../testing/kits/reports-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

let harness: TestApp;
let team: Team;
let clientId: string;

beforeAll(async () => {
  harness = await createTestApp();
  team = await teamFor(harness, "moves");
  clientId = (await createClient(team.coordinator)).id;
});
afterAll(() => harness.close());

/** Checks no test data can satisfy. */
const unpassableChecks: string[] = [];

/**
 * Satisfies `billing-check-passed` for a case made by `caseIn` (no time logs): nothing runs, no month needs a rate,
 * the one CPT warning (no billable time, under 2 hours) is acknowledged in a billing note, and a signed report is
 * stored.
 */
async function passBillingCheck(caseId: string): Promise<void> {
  await storeSignedReport(harness, team, caseId);
  await createItem(
    team.billing,
    "billing-note",
    caseId,
    sampleBillingNote({ acknowledgedWarnings: ["under-2-hours"] }),
  );
}

/** Satisfies `final-interpretation-signed`: a reviewer drafts and signs an interpretation (case in preview). */
async function signInterpretation(caseId: string): Promise<void> {
  const collection = `/cases/monitoring/${caseId}/interpretations`;
  const created = await team.reviewer("POST", collection, { body: sampleInterpretation() });
  expect(created.statusCode, created.body).toBe(201);
  const signed = await team.reviewer("POST", `${collection}/${created.json().data.id}/revisions`, {
    body: { change: "sign", baseRevision: 1 },
  });
  expect(signed.statusCode, signed.body).toBe(201);
}

describe("the transition table, for every group", () => {
  for (const rule of caseTransitionRules) {
    for (const group of accessGroups) {
      const mayRequest = groupPermissions[group].includes(rule.permission);
      const blocked = rule.checks.find((check) => unpassableChecks.includes(check));
      const expected = !mayRequest ? 403 : blocked ? 409 : 201;
      it(`${rule.from} → ${rule.to} (${rule.id}) as ${group}: ${expected}`, async () => {
        const subject = await caseIn(harness, team, clientId, rule.from);
        if (rule.checks.includes("final-interpretation-signed")) await signInterpretation(subject.id);
        if (rule.checks.includes("billing-check-passed")) await passBillingCheck(subject.id);
        const caller = team[group as AccessGroup];
        const response = await caller("POST", `/cases/${subject.id}/transitions`, {
          body: { to: rule.to, ...(rule.reasonRequired ? { reason: "Needs another look" } : {}) },
        });
        expect(response.statusCode, response.body).toBe(expected);
        const after: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
        if (expected === 201) {
          const result: TransitionResult = response.json().data;
          expect(result.transition).toMatchObject({
            ruleId: rule.id,
            from: rule.from,
            to: rule.to,
            status: rule.needsApproval ? "pending" : "completed",
            requestedBy: { username: caller.username },
          });
          expect(after.stage).toBe(rule.needsApproval ? rule.from : rule.to);
          expect(result.case.stage).toBe(after.stage);
        } else {
          expect(after.stage).toBe(rule.from);
          const error = response.json().error;
          expect(error.message.length).toBeGreaterThan(10);
          if (expected === 409) expect(error.details.failedChecks).toContain(blocked);
        }
      });
    }
  }
});

describe("named preconditions", () => {
  it("refuses to start monitoring without a technologist (409 technologist-assigned)", async () => {
    const subject = await openCase(team.coordinator, clientId);
    const response = await team.technologist("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "monitoring" },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.failedChecks).toEqual(["technologist-assigned"]);
    expect(response.json().error.message).toMatch(/Assign a technologist/);
  });

  it("refuses to start monitoring while the client has no protocol (409 client-protocol-exists)", async () => {
    const bare = await createClient(team.coordinator, { protocol: false });
    const subject = await caseIn(harness, team, bare.id, "intake");
    const response = await team.coordinator("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "monitoring" },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.failedChecks).toEqual(["client-protocol-exists"]);
  });

  it("refuses to end monitoring before the recording end time is set (409 recording-ended)", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    await harness.database.db.update(cases).set({ recordingEndedAt: null }).where(eq(cases.id, subject.id));
    const response = await team.technologist("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.failedChecks).toEqual(["recording-ended"]);
  });

  for (const rule of caseTransitionRules.filter((candidate) => candidate.reasonRequired)) {
    it(`needs a reason for ${rule.from} → ${rule.to} (409 reason-given)`, async () => {
      const subject = await caseIn(harness, team, clientId, rule.from);
      const response = await team.admin("POST", `/cases/${subject.id}/transitions`, {
        body: { to: rule.to, reason: "   " },
      });
      expect(response.statusCode).toBe(409);
      expect(response.json().error.details.failedChecks).toEqual(["reason-given"]);
    });
  }

  it("explains final-interpretation-signed (while none is signed) and billing-check-passed in words", async () => {
    const preview = await caseIn(harness, team, clientId, "preview");
    const signOff = await team.reviewer("POST", `/cases/${preview.id}/transitions`, { body: { to: "reviewed" } });
    expect(signOff.json().error.message).toMatch(/final \(signed\) interpretation/);
    const reviewed = await caseIn(harness, team, clientId, "reviewed");
    const close = await team.billing("POST", `/cases/${reviewed.id}/transitions`, { body: { to: "closed" } });
    expect(close.statusCode).toBe(409);
    expect(close.json().error.details.failedChecks).toEqual(["billing-check-passed"]);
    expect(close.json().error.message).toMatch(
      /billing check has not passed: CPT warnings not acknowledged in a billing note: .*under-2-hours/,
    );
  });

  it("closes a reviewed case once the billing check passes, and says what is missing while it does not", async () => {
    const client = await createClient(team.coordinator);
    const subject = await caseIn(harness, team, client.id, "monitoring");
    await createItem(
      team.technologist,
      "time-log",
      subject.id,
      sampleTimeLog({ startedAt: minutesAgo(300), endedAt: null, mode: "intermittent", video: false }),
    );
    await harness.database.db.update(cases).set({ stage: "reviewed" }).where(eq(cases.id, subject.id));
    const closeIt = () => team.billing("POST", `/cases/${subject.id}/transitions`, { body: { to: "closed" } });

    const first = await closeIt();
    expect(first.statusCode).toBe(409);
    expect(first.json().error.details.failedChecks).toEqual(["billing-check-passed"]);
    expect(first.json().error.message).toMatch(/time log is still running \(.*'s monitoring log since /);
    expect(first.json().error.message).toMatch(/No rate for \d{4}-\d{2}/);
    expect(first.json().error.message).toContain(`(${client.name})`);
    const before: Case = (await team.billing("GET", `/cases/${subject.id}`)).json().data;
    expect(before.allowedTransitions.find((move) => move.to === "closed")).toMatchObject({ allowed: false });

    await harness.database.db.update(cases).set({ stage: "monitoring" }).where(eq(cases.id, subject.id));
    const stopped = await team.technologist("POST", `/cases/monitoring/${subject.id}/time-logs/latest/revisions`, {
      body: { change: "clock-out" },
    });
    expect(stopped.statusCode, stopped.body).toBe(201);
    await harness.database.db.update(cases).set({ stage: "reviewed" }).where(eq(cases.id, subject.id));
    // One rate on a month before the log (whatever the client's zone), inherited by every month it touches.
    const earlier = new Date(Date.now() - 40 * 86_400_000).toISOString().slice(0, 7);
    const rated = await team.billing("POST", `/api/billing/continuous-monitoring/${client.id}/${earlier}/rate`, {
      body: { hourlyRate: "100", baseVersion: null },
    });
    expect(rated.statusCode, rated.body).toBe(200);
    const second = await closeIt();
    expect(second.statusCode).toBe(409);
    expect(second.json().error.message).not.toMatch(/still running|No rate/);
    expect(second.json().error.message).toMatch(/CPT warnings not acknowledged in a billing note: .*review-check-gap/);

    await storeSignedReport(harness, team, subject.id);
    const warnings = (await team.billing("GET", `/cases/${subject.id}/billing-check`)).json().data.cpt.warnings;
    await createItem(
      team.billing,
      "billing-note",
      subject.id,
      sampleBillingNote({ acknowledgedWarnings: warnings.map((warning: { id: string }) => warning.id) }),
    );
    const closed = await closeIt();
    expect(closed.statusCode, closed.body).toBe(201);
    expect(closed.json().data.case.stage).toBe("closed");
  });

  it("refuses a move that is not in the table, and a move to the current stage, with 409", async () => {
    const subject = await caseIn(harness, team, clientId, "intake");
    const skip = await team.admin("POST", `/cases/${subject.id}/transitions`, { body: { to: "closed" } });
    expect(skip.statusCode).toBe(409);
    expect(skip.json().error.message).toMatch(/cannot move to closed/);
    const same = await team.admin("POST", `/cases/${subject.id}/transitions`, { body: { to: "intake" } });
    expect(same.statusCode).toBe(409);
    expect(same.json().error.message).toMatch(/already in intake/);
  });

  it("refuses a move based on a stale version with 409", async () => {
    const subject = await caseIn(harness, team, clientId, "intake");
    const response = await team.coordinator("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "monitoring", version: subject.version - 1 },
    });
    expect(response.statusCode).toBe(409);
    expect(response.json().error.details.currentVersion).toBe(subject.version);
  });

  it("answers 404 for an unknown case", async () => {
    const response = await team.admin("POST", `/cases/${unknownId}/transitions`, { body: { to: "monitoring" } });
    expect(response.statusCode).toBe(404);
  });
});

describe("what the case tells each user they may do", () => {
  it("lists only the moves the user's groups allow, with the checks that fail now", async () => {
    const subject = await openCase(team.coordinator, clientId);
    const asTechnologist: Case = (await team.technologist("GET", `/cases/${subject.id}`)).json().data;
    expect(asTechnologist.allowedTransitions).toEqual([
      expect.objectContaining({
        ruleId: "start-monitoring",
        to: "monitoring",
        allowed: false,
        failedChecks: [expect.objectContaining({ check: "technologist-assigned" })],
      }),
    ]);
    expect(asTechnologist.allowedActions).toEqual([]);
    const asReviewer: Case = (await team.reviewer("GET", `/cases/${subject.id}`)).json().data;
    expect(asReviewer.allowedTransitions).toEqual([]);
    expect(asReviewer.allowedActions.map((action) => action.action)).toEqual(["acknowledge"]);
    expect(asReviewer.allowedActions[0]?.allowed).toBe(false);
    const asCoordinator: Case = (await team.coordinator("GET", `/cases/${subject.id}`)).json().data;
    expect(asCoordinator.allowedActions.map((action) => [action.action, action.allowed])).toEqual([
      ["assign-technologist", true],
      ["end-assignment", false],
      ["assign-reviewer", true],
      ["set-priority", true],
    ]);
  });

  it("marks a move allowed once its checks pass, and shows reason-required moves as allowed", async () => {
    const intake = await caseIn(harness, team, clientId, "intake");
    expect(intake.allowedTransitions).toEqual([expect.objectContaining({ ruleId: "start-monitoring", allowed: true })]);
    const preview = await caseIn(harness, team, clientId, "preview");
    const asReviewer: Case = (await team.reviewer("GET", `/cases/${preview.id}`)).json().data;
    expect(asReviewer.allowedTransitions.map((move) => [move.ruleId, move.allowed, move.reasonRequired])).toEqual([
      ["return-to-monitoring", true, true],
      ["sign-off", false, false],
    ]);
  });
});

describe("starting monitoring pins the client's protocol revision", () => {
  it("keeps showing the pinned revision after the client's protocol is revised", async () => {
    const client = await createClient(team.coordinator);
    const subject = await caseIn(harness, team, client.id, "intake");
    const started = await team.technologist("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "monitoring" },
    });
    expect(started.statusCode, started.body).toBe(201);
    const pinnedCase: Case = started.json().data.case;
    expect(pinnedCase.protocolRevision).toBe(1);
    expect(pinnedCase.recordingStartedAt).not.toBeNull();

    const revised = await team.coordinator("POST", `/clients/${client.id}/protocol/revisions`, {
      body: sampleProtocol({ baseRevision: 1, instructions: "New instructions", impedanceThresholdKohm: 5 }),
    });
    expect(revised.statusCode, revised.body).toBe(201);

    const pinned = await team.billing("GET", `/cases/closed/${subject.id}/client-protocol`);
    expect(pinned.statusCode).toBe(200);
    expect(pinned.json().data).toMatchObject({
      id: pinnedCase.protocolRevisionId,
      revision: 1,
      impedanceThresholdKohm: 7.5,
    });
    const current = await team.coordinator("GET", `/clients/${client.id}/protocol`);
    expect(current.json().data.current.revision).toBe(2);
  });

  it("answers 404 while nothing is pinned", async () => {
    const subject = await openCase(team.coordinator, clientId);
    const response = await team.admin("GET", `/cases/closed/${subject.id}/client-protocol`);
    expect(response.statusCode).toBe(404);
    expect(response.json().error.message).toMatch(/pinned when monitoring starts/);
  });
});

describe("re-opening a closed case waits for an administrator", () => {
  async function requestReopen(): Promise<{ subject: Case; transitionId: string }> {
    const subject = await caseIn(harness, team, clientId, "closed");
    const response = await team.billing("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "reviewed", reason: "Billing codes need a correction" },
    });
    expect(response.statusCode, response.body).toBe(201);
    const result: TransitionResult = response.json().data;
    expect(result.transition.status).toBe("pending");
    expect(result.case.stage).toBe("closed");
    expect(result.case.pendingTransition?.id).toBe(result.transition.id);
    expect(result.transition.allowedActions).toEqual(["cancel", "comment"]);
    return { subject, transitionId: result.transition.id };
  }

  it("completes when an administrator approves", async () => {
    const { subject, transitionId } = await requestReopen();
    const asAdmin: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
    expect(asAdmin.pendingTransition?.allowedActions).toEqual(["approve", "reject", "cancel", "comment"]);
    const response = await team.admin("POST", `/cases/${subject.id}/transitions/${transitionId}/actions`, {
      body: { action: "approve", comment: "Approved for correction" },
    });
    expect(response.statusCode, response.body).toBe(200);
    const result: TransitionResult = response.json().data;
    expect(result.transition).toMatchObject({ status: "completed", decidedBy: { username: team.admin.username } });
    expect(result.case.stage).toBe("reviewed");
    expect(result.case.pendingTransition).toBeNull();
    expect(await auditRows(harness, "case.transition.approve", subject.id)).toHaveLength(1);
    expect(await auditRows(harness, "case.transition.request", subject.id)).toHaveLength(1);
  });

  it("marks the case in the closed queue while the request waits, and not once it is decided", async () => {
    const { subject, transitionId } = await requestReopen();
    const queueRow = async () => {
      const page = await team.admin("GET", `/cases/closed?clientId=${clientId}&limit=200`);
      expect(page.statusCode, page.body).toBe(200);
      return (page.json().data.items as { id: string; hasPendingTransition: boolean }[]).find(
        (item) => item.id === subject.id,
      );
    };
    expect(await queueRow()).toMatchObject({ hasPendingTransition: true });
    const rejected = await team.admin("POST", `/cases/${subject.id}/transitions/${transitionId}/actions`, {
      body: { action: "reject", comment: "Not needed" },
    });
    expect(rejected.statusCode, rejected.body).toBe(200);
    expect(await queueRow()).toMatchObject({ hasPendingTransition: false });
  });

  it("refuses approval and rejection by anyone but an administrator (403)", async () => {
    const { subject, transitionId } = await requestReopen();
    for (const group of ["coordinator", "reviewer", "billing", "technologist"] as const) {
      for (const action of ["approve", "reject"]) {
        const response = await team[group]("POST", `/cases/${subject.id}/transitions/${transitionId}/actions`, {
          body: { action },
        });
        expect(response.statusCode, `${group} ${action}`).toBe(403);
      }
    }
    const after: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
    expect(after.stage).toBe("closed");
    expect(after.pendingTransition?.status).toBe("pending");
  });

  it("leaves the case closed when rejected, and a decided request cannot be decided again", async () => {
    const { subject, transitionId } = await requestReopen();
    const url = `/cases/${subject.id}/transitions/${transitionId}/actions`;
    const rejected = await team.admin("POST", url, { body: { action: "reject", comment: "Not needed" } });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data.transition.status).toBe("rejected");
    expect(rejected.json().data.case.stage).toBe("closed");
    const again = await team.admin("POST", url, { body: { action: "approve" } });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/already rejected/);
  });

  it("can be cancelled by the requester but not by another requester-group user", async () => {
    const { subject, transitionId } = await requestReopen();
    const url = `/cases/${subject.id}/transitions/${transitionId}/actions`;
    const other = await team.reviewer("POST", url, { body: { action: "cancel" } });
    expect(other.statusCode).toBe(403);
    const own = await team.billing("POST", url, { body: { action: "cancel" } });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.transition.status).toBe("cancelled");
  });

  it("takes comments from anyone working on cases, and blocks other moves while pending", async () => {
    const { subject, transitionId } = await requestReopen();
    const url = `/cases/${subject.id}/transitions/${transitionId}/actions`;
    const comment = await team.reviewer("POST", url, { body: { action: "comment", comment: "I agree" } });
    expect(comment.statusCode).toBe(200);
    expect(comment.json().data.transition.status).toBe("pending");
    const empty = await team.reviewer("POST", url, { body: { action: "comment" } });
    expect(empty.statusCode).toBe(400);
    const second = await team.coordinator("POST", `/cases/${subject.id}/transitions`, {
      body: { to: "reviewed", reason: "Also" },
    });
    expect(second.statusCode).toBe(409);
    expect(second.json().error.details.failedChecks).toEqual(["no-pending-transition"]);
    const developer = await team.developer("POST", url, { body: { action: "comment", comment: "hi" } });
    expect(developer.statusCode).toBe(403);

    const timeline = (await team.reviewer("GET", `/cases/${subject.id}/timeline`)).json().data;
    const kinds = timeline.items.map((entry: { kind: string }) => entry.kind);
    expect(kinds.slice(-2)).toEqual(["transition", "transition-action"]);
    expect(timeline.items.at(-1)).toMatchObject({ action: "comment", comment: "I agree", transitionId });
  });

  it("answers 404 for a transition of another case", async () => {
    const { transitionId } = await requestReopen();
    const other = await openCase(team.coordinator, clientId);
    const response = await team.admin("POST", `/cases/${other.id}/transitions/${transitionId}/actions`, {
      body: { action: "approve" },
    });
    expect(response.statusCode).toBe(404);
  });
});

describe("two people moving the same case at the same moment", () => {
  it("lets exactly one of 20 concurrent moves through; the others get 409 and one transition row exists", async () => {
    const subject = await caseIn(harness, team, clientId, "intake");
    const callers = [team.coordinator, team.technologist, team.admin, team.technologist2];
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (callers[index % callers.length] as Team["admin"])("POST", `/cases/${subject.id}/transitions`, {
          body: { to: "monitoring", version: subject.version },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    const rows = await harness.database.db.select().from(caseTransitions).where(eq(caseTransitions.caseId, subject.id));
    expect(rows).toHaveLength(1);
    const after: Case = (await team.admin("GET", `/cases/${subject.id}`)).json().data;
    expect(after.stage).toBe("monitoring");
    expect(after.version).toBe(subject.version + 1);
  });

  it("lets exactly one of two different moves from preview through", async () => {
    const subject = await caseIn(harness, team, clientId, "preview");
    const [back, again] = await Promise.all([
      team.reviewer("POST", `/cases/${subject.id}/transitions`, { body: { to: "monitoring", reason: "Artifact" } }),
      team.coordinator("POST", `/cases/${subject.id}/transitions`, { body: { to: "monitoring", reason: "Redo" } }),
    ]);
    expect([back?.statusCode, again?.statusCode].sort()).toEqual([201, 409]);
  });
});

describe("auditing of moves", () => {
  it("records the completed move with the actor in the audit log and on the timeline", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    const response = await team.technologist("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    expect(response.statusCode).toBe(201);
    const [row] = (await auditRows(harness, "case.transition", subject.id)).filter(
      (audit) => (audit.details as { ruleId: string }).ruleId === "end-monitoring",
    );
    expect(row).toMatchObject({ outcome: "success", actorUsername: team.technologist.username });
    const writes = await auditRows(harness, "patient-data.write", subject.id);
    expect(writes.length).toBeGreaterThan(0);
  });

  it("records a refused move as a denied or failed patient-data write", async () => {
    const subject = await caseIn(harness, team, clientId, "monitoring");
    await team.billing("POST", `/cases/${subject.id}/transitions`, { body: { to: "preview" } });
    const rows = await auditRows(harness, "patient-data.write", subject.id);
    expect(rows.at(-1)).toMatchObject({ outcome: "denied", actorUsername: team.billing.username });
  });
});
