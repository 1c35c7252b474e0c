import { randomUUID } from "node:crypto";
import { author, type ClientInfo, type DatasetContext, day, hour, type Person, type Stage } from "./dataset-context.js";
import type { Population } from "./generate-users.js";
import type { PlannedCase } from "./plan-cases.js";
import { specs } from "./table-specs.js";
import { firstNames, indications, lastNames, medications, units } from "./vocabulary.js";
import { writeAudit } from "./write-audit.js";

/** What the record steps need to know of a written case. */
export type CaseFacts = {
  caseId: string;
  client: ClientInfo;
  stageIndex: number;
  createdAt: number;
  started: number | null;
  ended: number | null;
  reviewedAt: number | null;
  closedAt: number | null;
  /** The latest of the workflow's moments. */
  latestMoment: number;
  studyHours: number;
  icuHours: number;
  hasVideo: boolean;
  mode: "continuous" | "intermittent" | "unmonitored";
  /** The protocol revision in force when the recording started. */
  pinned: ClientInfo["protocols"][number] | undefined;
  coordinator: Person;
  techs: Person[];
  reviewer: Person | undefined;
};

const order: Stage[] = ["intake", "monitoring", "preview", "reviewed", "closed"];
const year = (at: number) => new Date(at).getUTCFullYear();

/**
 * One case and its stage history: the workflow's moments, its technologists and reviewer, its patient details'
 * revisions, assignments and actions, the completed transitions that brought it to its stage, the case row itself,
 * and the audit events of its opening and of every read of its patient data.
 */
export function writeCase(
  context: DatasetContext,
  population: Population,
  planned: PlannedCase,
  index: number,
): CaseFacts {
  const { random, now, out } = context;
  const { technologists, coordinators, reviewers, billers, staff } = population;
  const { stage, createdAt, client } = planned;
  const stageIndex = order.indexOf(stage);
  const caseId = randomUUID();
  const caseNumber = `CM-${year(createdAt)}-${String(index + 1).padStart(6, "0")}`;
  const studyType = random.pick(["icu-ceeg", "icu-ceeg", "icu-ceeg", "emu-video", "ambulatory"] as const);
  const hasVideo = studyType !== "ambulatory" && random.chance(0.85);
  const priority = random.chance(0.12) ? "stat" : "routine";
  const coordinator = random.pick(coordinators);

  // The workflow's moments.
  const started = stageIndex >= 1 ? createdAt + random.between(0.5, 4) * hour : null;
  const studyHours =
    studyType === "ambulatory" ? random.between(24, 72) : studyType === "emu-video" ? random.between(24, 120) : 0;
  const icuHours = random.between(18, 96);
  let ended: number | null = null;
  if (started !== null && stageIndex >= 2) {
    ended = started + (studyHours || icuHours) * hour;
    // A preview case has finished recording before now.
    ended = Math.min(ended, now - 6 * hour - random.between(0, 24) * hour);
    if (ended <= started + 2 * hour) ended = started + 2 * hour + random.between(0, 4) * hour;
  }
  const reviewedAt = ended !== null && stageIndex >= 3 ? ended + random.between(4, 48) * hour : null;
  const closedAt = reviewedAt !== null && stageIndex >= 4 ? reviewedAt + random.between(1, 10) * day : null;
  const mode =
    studyType !== "ambulatory"
      ? "continuous"
      : stage === "monitoring" || random.chance(0.5)
        ? "intermittent"
        : "unmonitored";
  const pinned =
    started !== null
      ? ([...client.protocols].reverse().find((protocol) => protocol.at <= started) ?? client.protocols[0])
      : undefined;

  // Technologists: 1–3 shifts' worth per case (intake cases are half the time assigned already).
  const techCount = stageIndex === 0 ? (random.chance(0.5) ? 1 : 0) : random.int(1, 3);
  const techs: Person[] = [];
  while (techs.length < techCount) {
    const candidate = random.pick(technologists);
    if (!techs.includes(candidate)) techs.push(candidate);
  }
  const hasReviewer = stageIndex >= 2 || priority === "stat";
  const reviewer = hasReviewer ? random.pick(reviewers) : undefined;
  const acknowledged = priority === "stat" && stageIndex >= 1 && reviewer !== undefined;
  const acknowledgedAt = acknowledged ? createdAt + random.between(0.1, 1) * hour : null;

  // Patient details: revision 1 at opening; some later revisions (a move, a corrected name).
  const first = random.pick(firstNames);
  const last = random.pick(lastNames);
  const mrn = `${client.code}-${String(1_000_000 + ((index * 7919) % 9_000_000)).padStart(7, "0")}`;
  const dateOfBirth = `${random.int(1935, 2022)}-${String(random.int(1, 12)).padStart(2, "0")}-${String(
    random.int(1, 28),
  ).padStart(2, "0")}`;
  const sex = random.pick(["female", "male"]);
  const patientRevisions: { lastName: string; unit: string; at: number; reason: string | null; by: Person }[] = [
    { lastName: last, unit: random.pick(units), at: createdAt, reason: null, by: coordinator },
  ];
  const latestMoment = closedAt ?? reviewedAt ?? ended ?? started ?? createdAt;
  if (random.chance(0.3)) {
    patientRevisions.push({
      lastName: last,
      unit: random.pick(units),
      at: createdAt + (latestMoment - createdAt) * random.between(0.1, 0.6),
      reason: "Patient moved to another unit",
      by: random.pick([...coordinators, ...techs]),
    });
  }
  if (random.chance(0.08)) {
    patientRevisions.push({
      lastName: `${last}-${random.pick(lastNames)}`,
      unit: (patientRevisions[patientRevisions.length - 1] as { unit: string }).unit,
      at: createdAt + (latestMoment - createdAt) * random.between(0.65, 0.95),
      reason: "Family name corrected from the hospital's registration (identification error)",
      by: coordinator,
    });
  }
  patientRevisions.forEach((revision, number) => {
    out.row(specs.patientDetails, [
      randomUUID(),
      caseId,
      number + 1,
      mrn,
      first,
      revision.lastName,
      dateOfBirth,
      sex,
      revision.unit,
      String(random.int(1, 30)),
      random.pick(["A", "B", "1", "2"]),
      `Dr. ${random.pick(firstNames)} ${random.pick(lastNames)}`,
      random.pick(indications),
      random.pick(medications),
      revision.reason,
      revision.by.sub,
      revision.by.username,
      revision.by.name,
      new Date(revision.at),
    ]);
    context.counts.patientDetailsRevisions++;
  });
  const latestPatient = patientRevisions[patientRevisions.length - 1] as (typeof patientRevisions)[number];

  // Assignments and the case's own actions.
  const actions: [string, unknown, Person, number][] = [
    [
      "create",
      { clientId: client.id, studyType, priority, hasVideo, patientDetailsRevision: 1 },
      coordinator,
      createdAt,
    ],
  ];
  techs.forEach((tech, number) => {
    const assignedAt = createdAt + (number + 0.25) * 0.2 * hour;
    const assignmentId = randomUUID();
    out.row(specs.assignments, [
      assignmentId,
      caseId,
      tech.sub,
      tech.username,
      tech.name,
      new Date(assignedAt),
      closedAt !== null ? new Date(closedAt) : null,
      coordinator.sub,
      coordinator.username,
      coordinator.name,
    ]);
    actions.push(["assign-technologist", { assignmentId, technologist: author(tech) }, coordinator, assignedAt]);
  });
  if (reviewer) {
    actions.push([
      "assign-reviewer",
      { reviewer: author(reviewer), previous: null },
      coordinator,
      createdAt + 0.3 * hour,
    ]);
  }
  if (acknowledged && reviewer && acknowledgedAt !== null) {
    actions.push(["acknowledge", { becameReviewer: false }, reviewer, acknowledgedAt]);
  }
  for (const [action, details, by, at] of actions) {
    out.row(specs.actions, [randomUUID(), caseId, action, details, by.sub, by.username, by.name, new Date(at)]);
  }

  // The moves that brought it to its stage.
  const moves: [string, Stage, Stage, number | null, Person | undefined][] = [
    ["start-monitoring", "intake", "monitoring", started, techs[0] ?? coordinator],
    ["end-monitoring", "monitoring", "preview", ended, techs[techs.length - 1] ?? coordinator],
    ["sign-off", "preview", "reviewed", reviewedAt, reviewer],
    ["close", "reviewed", "closed", closedAt, random.pick(billers)],
  ];
  let version = 1 + techs.length + (reviewer ? 1 : 0) + (acknowledged ? 1 : 0) + (patientRevisions.length - 1);
  for (const [ruleId, from, to, at, by] of moves) {
    if (at === null || !by) continue;
    version++;
    out.row(specs.transitions, [
      randomUUID(),
      caseId,
      ruleId,
      from,
      to,
      "completed",
      by.sub,
      by.username,
      by.name,
      by.sub,
      by.username,
      by.name,
      new Date(at),
      new Date(at),
    ]);
    writeAudit(context, at, by, "case.transition", ["case", caseId], { caseNumber, ruleId, from, to });
  }

  out.row(specs.cases, [
    caseId,
    caseNumber,
    client.id,
    studyType,
    hasVideo,
    priority,
    stage,
    pinned?.id ?? null,
    started !== null ? new Date(started) : null,
    ended !== null ? new Date(ended) : null,
    reviewer?.sub ?? null,
    reviewer?.username ?? null,
    reviewer?.name ?? null,
    acknowledged ? reviewer?.sub : null,
    acknowledged ? reviewer?.username : null,
    acknowledged ? reviewer?.name : null,
    acknowledgedAt !== null ? new Date(acknowledgedAt) : null,
    mrn,
    first,
    latestPatient.lastName,
    coordinator.sub,
    coordinator.username,
    coordinator.name,
    version,
    new Date(createdAt),
    new Date(Math.max(latestMoment, latestPatient.at)),
  ]);
  writeAudit(context, createdAt, coordinator, "case.create", ["case", caseId], {
    caseNumber,
    clientId: client.id,
    studyType,
    priority,
    hasVideo,
    patientDetailsRevision: 1,
  });
  // Patient-data reads: every open of the case left one.
  const reads = random.int(1, 4);
  for (let read = 0; read < reads; read++) {
    const at = Math.min(now, createdAt + (Math.max(latestMoment, createdAt + hour) - createdAt) * random.next());
    writeAudit(context, at, random.pick(staff), "patient-data.read", ["case", caseId], {
      route: "getCase",
      method: "GET",
      url: `/api/continuous-monitoring/cases/${caseId}`,
      status: 200,
    });
  }
  return {
    caseId,
    client,
    stageIndex,
    createdAt,
    started,
    ended,
    reviewedAt,
    closedAt,
    latestMoment,
    studyHours,
    icuHours,
    hasVideo,
    mode,
    pinned,
    coordinator,
    techs,
    reviewer,
  };
}
