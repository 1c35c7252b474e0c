import type { MonitoringMode, TransitionRuleId } from "@vigil/contract";
import { sql } from "drizzle-orm";
import type { Db } from "../db/client.js";
import {
  caseActions,
  caseAssignments,
  casePatientDetails,
  cases,
  caseTransitions,
  protocolRevisions,
} from "../db/schema.js";
import { type DemoCase, demoCases } from "./demo-cases.js";
import { type DemoClientExtras, demoClientExtras } from "./demo-clients.js";

/** A seeded case as its records are written: what happened when, and how it is monitored. */
export type SeededCase = {
  id: string;
  clientId: string;
  stage: DemoCase["stage"];
  /** When the recording started and ended, and when the case was reviewed (null where it has not happened). */
  started: Date | null;
  ended: Date | null;
  reviewed: Date | null;
  hasVideo: boolean;
  /** The mode its technologist monitors it in. */
  mode: MonitoringMode;
  thresholdKohm: number;
};

export type SeedUser = { sub: string; username: string; name: string };

/**
 * The demo cases with the workflow they went through: patient details (revision 1), technologist assignments,
 * the reviewer, the pinned protocol revision, recording times and the transitions that brought each one to its
 * stage. Numbers come from the case-number sequence, so cases opened later continue after them.
 */
export async function seedCases(tx: Db, clientIds: string[], people: SeedUser[]): Promise<SeededCase[]> {
  const seeded: SeededCase[] = [];
  const byName = (username: string) => people.find((user) => user.username === username) as SeedUser;
  const coordinator = byName("coordinator");
  const technologist = byName("technologist");
  const reviewer = byName("reviewer");
  const billing = byName("billing");
  const year = new Date().getUTCFullYear();
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  const order = ["intake", "monitoring", "preview", "reviewed", "closed"];

  for (const demo of demoCases) {
    const clientId = clientIds[demo.client] as string;
    const [pinned] = await tx
      .select({ id: protocolRevisions.id })
      .from(protocolRevisions)
      .where(sql`${protocolRevisions.clientId} = ${clientId} and ${protocolRevisions.revision} = 1`);
    const number = await tx.execute(sql`select nextval('case_number_seq')::bigint as value`);
    const numberRows = (Array.isArray(number) ? number : (number as { rows: unknown[] }).rows) as { value: string }[];
    const stageIndex = order.indexOf(demo.stage);
    const opened = hoursAgo(demo.openedHoursAgo);
    const started = stageIndex >= 1 ? hoursAgo(demo.openedHoursAgo - 2) : null;
    const ended = stageIndex >= 2 ? hoursAgo(demo.openedHoursAgo - 26) : null;
    const reviewed = stageIndex >= 3 ? hoursAgo(demo.openedHoursAgo - 40) : null;
    const closed = stageIndex >= 4 ? hoursAgo(demo.openedHoursAgo - 60) : null;
    const hasReviewer = stageIndex >= 2 || demo.priority === "stat";
    const acknowledged = demo.priority === "stat" && stageIndex >= 1;

    const [row] = await tx
      .insert(cases)
      .values({
        caseNumber: `CM-${year}-${String(numberRows[0]?.value).padStart(6, "0")}`,
        clientId,
        studyType: demo.studyType,
        hasVideo: demo.hasVideo,
        priority: demo.priority,
        stage: demo.stage,
        protocolRevisionId: stageIndex >= 1 ? (pinned?.id ?? null) : null,
        recordingStartedAt: started,
        recordingEndedAt: ended,
        ...(hasReviewer
          ? { reviewerSub: reviewer.sub, reviewerUsername: reviewer.username, reviewerName: reviewer.name }
          : {}),
        ...(acknowledged
          ? {
              acknowledgedAt: hoursAgo(demo.openedHoursAgo - 1),
              acknowledgedBySub: reviewer.sub,
              acknowledgedByUsername: reviewer.username,
              acknowledgedByName: reviewer.name,
            }
          : {}),
        patientMrn: demo.patient.mrn,
        patientFirstName: demo.patient.firstName,
        patientLastName: demo.patient.lastName,
        createdBySub: coordinator.sub,
        createdByUsername: coordinator.username,
        createdByName: coordinator.name,
        version: 1 + stageIndex + (demo.technologistAssigned ? 1 : 0) + (hasReviewer ? 1 : 0),
        createdAt: opened,
        updatedAt: closed ?? reviewed ?? ended ?? started ?? opened,
      })
      .returning({ id: cases.id });
    const caseId = (row as { id: string }).id;
    // ICU and EMU studies are watched continuously; the ambulatory one still recording is reviewed every 2 h
    // (intermittent), the finished one was recorded unmonitored at home.
    const mode =
      demo.studyType !== "ambulatory" ? "continuous" : demo.stage === "monitoring" ? "intermittent" : "unmonitored";
    seeded.push({
      id: caseId,
      clientId,
      stage: demo.stage,
      started,
      ended,
      reviewed,
      hasVideo: demo.hasVideo,
      mode,
      thresholdKohm: (demoClientExtras[demo.client] as DemoClientExtras).protocol.impedanceThresholdKohm,
    });
    const { patient } = demo;
    await tx.insert(casePatientDetails).values({
      caseId,
      revision: 1,
      mrn: patient.mrn,
      firstName: patient.firstName,
      lastName: patient.lastName,
      dateOfBirth: patient.dateOfBirth,
      sex: patient.sex,
      locationUnit: patient.unit,
      locationRoom: patient.room || null,
      locationBed: patient.bed || null,
      referringPhysician: patient.referringPhysician,
      indication: patient.indication,
      medications: patient.medications,
      authorSub: coordinator.sub,
      authorUsername: coordinator.username,
      authorName: coordinator.name,
      createdAt: opened,
    });

    const by = (user: SeedUser) => ({ actorSub: user.sub, actorUsername: user.username, actorName: user.name });
    const actions: (typeof caseActions.$inferInsert)[] = [
      {
        caseId,
        action: "create",
        details: { clientId, studyType: demo.studyType, priority: demo.priority, patientDetailsRevision: 1 },
        ...by(coordinator),
        createdAt: opened,
      },
    ];
    if (demo.technologistAssigned) {
      const assignedAt = hoursAgo(demo.openedHoursAgo - 0.5);
      const [assignment] = await tx
        .insert(caseAssignments)
        .values({
          caseId,
          technologistSub: technologist.sub,
          technologistUsername: technologist.username,
          technologistName: technologist.name,
          startedAt: assignedAt,
          endedAt: closed,
          assignedBySub: coordinator.sub,
          assignedByUsername: coordinator.username,
          assignedByName: coordinator.name,
        })
        .returning({ id: caseAssignments.id });
      actions.push({
        caseId,
        action: "assign-technologist",
        details: {
          assignmentId: assignment?.id,
          technologist: { sub: technologist.sub, username: technologist.username, name: technologist.name },
        },
        ...by(coordinator),
        createdAt: assignedAt,
      });
    }
    if (hasReviewer) {
      actions.push({
        caseId,
        action: "assign-reviewer",
        details: { reviewer: { sub: reviewer.sub, username: reviewer.username, name: reviewer.name }, previous: null },
        ...by(coordinator),
        createdAt: hoursAgo(demo.openedHoursAgo - 0.75),
      });
    }
    if (acknowledged) {
      actions.push({
        caseId,
        action: "acknowledge",
        details: { becameReviewer: false },
        ...by(reviewer),
        createdAt: hoursAgo(demo.openedHoursAgo - 1),
      });
    }
    await tx.insert(caseActions).values(actions);

    const steps: {
      ruleId: TransitionRuleId;
      from: DemoCase["stage"];
      to: DemoCase["stage"];
      at: Date | null;
      user: SeedUser;
    }[] = [
      { ruleId: "start-monitoring", from: "intake", to: "monitoring", at: started, user: technologist },
      { ruleId: "end-monitoring", from: "monitoring", to: "preview", at: ended, user: technologist },
      { ruleId: "sign-off", from: "preview", to: "reviewed", at: reviewed, user: reviewer },
      { ruleId: "close", from: "reviewed", to: "closed", at: closed, user: billing },
    ];
    const moves = steps.filter((move) => move.at !== null);
    if (moves.length > 0) {
      await tx.insert(caseTransitions).values(
        moves.map((move) => ({
          caseId,
          ruleId: move.ruleId,
          fromStage: move.from,
          toStage: move.to,
          status: "completed" as const,
          requestedBySub: move.user.sub,
          requestedByUsername: move.user.username,
          requestedByName: move.user.name,
          decidedBySub: move.user.sub,
          decidedByUsername: move.user.username,
          decidedByName: move.user.name,
          decidedAt: move.at,
          createdAt: move.at as Date,
        })),
      );
    }
  }
  return seeded;
}
