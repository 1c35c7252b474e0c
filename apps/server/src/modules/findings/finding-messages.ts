import {
  type CriticalFindingKind,
  criticalFindingKindLabels,
  type FindingRecipientKind,
  formatInstantInZone,
  pages,
} from "@vigil/contract";

/*
 * What a critical finding's e-mail and SMS say (PRODUCT.md §11): the minimum a clinician needs to act — client, case
 * number, kind, the EEG onset, when it was raised and by when the hospital is to acknowledge it, in the client's time
 * zone — and, for the client's contacts, the acknowledgement link with its expiry. An escalation says so ("Escalation
 * n") in its subject and first line, so it never reads like the first message. Vigil staff (the case's reviewer,
 * coordinators) are informed and sent to the case, never given a link: acknowledging is the hospital's step (§10).
 * Messages leave the building over SMTP and SMS gateways, so the patient's name and MRN appear only where the
 * operator turned FINDING_MESSAGES_INCLUDE_PATIENT on, and the free-text description never (it may name anyone).
 */

export type FindingMessageFacts = {
  caseNumber: string;
  clientName: string;
  timeZone: string;
  kind: CriticalFindingKind;
  onsetAt: Date;
  raisedAt: Date;
  /** By when the hospital is to acknowledge: raised + the protocol's window. */
  dueAt: Date;
  /** 0: told when the finding was raised; n: the n-th escalation. */
  level: number;
  /** The patient as the case knows them; shown only with `includePatient`. */
  patient: { name: string | null; mrn: string | null };
  recipientKind: FindingRecipientKind;
  /** The contact's acknowledgement token; null for staff, who are informed and open the case instead. */
  token: string | null;
  linkExpiresAt: Date;
  /** The case's page in Vigil (a hash route), where staff record a phone acknowledgement. */
  caseHref: string;
  /** The EEG monitoring team's number to call (FINDING_TEAM_PHONE), or null. */
  teamPhone: string | null;
};

export type MessageOptions = { publicUrl: string; includePatient: boolean };
export type MessageText = { subject: string; body: string };

/** The address the link opens: the token stays in the fragment, which browsers never send to a server's log. */
export function acknowledgementLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl}/#${pages["finding-acknowledgement"].href({ token })}`;
}

const clockFormats = new Map<string, Intl.DateTimeFormat>();

/** "10:19 CST": the wall clock and the zone's short name at that instant, as a subject line and an SMS say a time. */
export function clockTimeIn(instant: Date, timeZone: string): string {
  let format = clockFormats.get(timeZone);
  if (!format) {
    try {
      format = new Intl.DateTimeFormat("en-US", {
        timeZone,
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
        timeZoneName: "short",
      });
    } catch {
      return clockTimeIn(instant, "UTC");
    }
    clockFormats.set(timeZone, format);
  }
  return format.format(instant);
}

/** "10:19": the wall clock without the zone, for a second time in a text that names the zone once. */
function wallClockIn(instant: Date, timeZone: string): string {
  return clockTimeIn(instant, timeZone).replace(/\s.*$/, "");
}

/** The kinds as an SMS says them: the ACNS abbreviation, which fits a single segment. */
const shortKind: Record<CriticalFindingKind, string> = {
  "electrographic-seizure": "ESz",
  "electrographic-status-epilepticus": "ESE",
  "electroclinical-seizure": "ECSz",
  "other-urgent": "urgent finding",
};

const whyYou: Record<FindingRecipientKind, string> = {
  contact: "You receive this because the client lists you to be told of critical EEG findings.",
  reviewer: "You receive this as the case's reviewer.",
  coordinator: "You receive this as a Vigil coordinator: nobody at the hospital has acknowledged the finding yet.",
};

function patientLine(facts: FindingMessageFacts): string | undefined {
  const { name, mrn } = facts.patient;
  if (!name && !mrn) return undefined;
  return `Patient: ${[name, mrn ? `MRN ${mrn}` : null].filter(Boolean).join(", ")}`;
}

const isStaff = (facts: FindingMessageFacts) => facts.recipientKind !== "contact" || facts.token === null;

function factLines(facts: FindingMessageFacts, options: MessageOptions): string[] {
  const zone = facts.timeZone;
  const patient = options.includePatient ? patientLine(facts) : undefined;
  return [
    `Client: ${facts.clientName}`,
    `Case: ${facts.caseNumber}`,
    ...(patient ? [patient] : []),
    `Finding: ${criticalFindingKindLabels[facts.kind]}`,
    `EEG onset: ${formatInstantInZone(facts.onsetAt, zone)}`,
    `Raised: ${formatInstantInZone(facts.raisedAt, zone)}`,
    `Acknowledge by: ${formatInstantInZone(facts.dueAt, zone)}${facts.level > 0 ? " (overdue)" : ""}`,
  ];
}

function emailSubject(facts: FindingMessageFacts): string {
  const due = clockTimeIn(facts.dueAt, facts.timeZone);
  const escalation = facts.level > 0 ? `Escalation ${facts.level}: ` : "";
  if (isStaff(facts)) {
    return facts.level > 0
      ? `${escalation}critical EEG finding not acknowledged by the hospital (acknowledge by ${due}) — ${facts.caseNumber}`
      : `For information: critical EEG finding, hospital to acknowledge by ${due} — ${facts.caseNumber}`;
  }
  return facts.level > 0
    ? `${escalation}critical EEG finding NOT yet acknowledged (acknowledge by ${due}) — ${facts.caseNumber}`
    : `Critical EEG finding — acknowledge by ${due} — ${facts.caseNumber}`;
}

function emailOpening(facts: FindingMessageFacts): string {
  const due = clockTimeIn(facts.dueAt, facts.timeZone);
  if (isStaff(facts)) {
    return facts.level > 0
      ? `Escalation ${facts.level}: nobody at the hospital has acknowledged this critical EEG finding, due by ${due}. ` +
          "Call the hospital's contact, and record their acknowledgement on the case."
      : `For your information: a critical EEG finding was raised. The hospital's contact is to acknowledge it by ${due}; ` +
          "this message does not acknowledge it for them.";
  }
  return facts.level > 0
    ? `Escalation ${facts.level}: this critical EEG finding was to be acknowledged by ${due} and nobody has yet. ` +
        "Please acknowledge it now."
    : `A critical EEG finding needs your acknowledgement by ${due}.`;
}

export function findingEmail(facts: FindingMessageFacts, options: MessageOptions): MessageText {
  const zone = facts.timeZone;
  const call = facts.teamPhone ? [`Or call the EEG monitoring team: ${facts.teamPhone}`] : [];
  const action =
    isStaff(facts) || !facts.token
      ? [`Open the case: ${options.publicUrl}/#${facts.caseHref}`]
      : [
          `Acknowledge: ${acknowledgementLinkOf(options.publicUrl, facts.token)}`,
          `The link works once and expires ${formatInstantInZone(facts.linkExpiresAt, zone)}.`,
          ...call,
        ];
  const lines = [emailOpening(facts), "", ...factLines(facts, options), "", ...action, "", whyYou[facts.recipientKind]];
  return { subject: emailSubject(facts), body: lines.join("\n") };
}

/**
 * The text message: ASCII only (one character outside the GSM alphabet makes every segment hold 70 characters instead
 * of 160), the zone said once, the acknowledgement link last. The signed link alone is over 100 characters, so with a
 * public address of any length a text takes two segments; nothing else in it is spare.
 */
export function findingSms(facts: FindingMessageFacts, options: MessageOptions): MessageText {
  const zone = facts.timeZone;
  const patient = options.includePatient ? patientLine(facts) : undefined;
  const due = clockTimeIn(facts.dueAt, zone);
  const what = `case ${facts.caseNumber}${patient ? ` (${patient})` : ""}: ${shortKind[facts.kind]}, onset ${wallClockIn(facts.onsetAt, zone)}`;
  const link = facts.token
    ? acknowledgementLinkOf(options.publicUrl, facts.token)
    : `${options.publicUrl}/#${facts.caseHref}`;
  const body =
    facts.level > 0
      ? `Vigil ESCALATION ${facts.level}: critical EEG finding NOT acknowledged, ${what}. Acknowledge by ${due}: ${link}`
      : `Vigil critical EEG finding, ${what}. Acknowledge by ${due}: ${link}`;
  return { subject: emailSubject(facts), body };
}

export type CancellationFacts = Pick<
  FindingMessageFacts,
  "caseNumber" | "clientName" | "timeZone" | "kind" | "raisedAt" | "recipientKind"
> & { cancelledAt: Date };

/**
 * The word to everyone already told that the finding was withdrawn, so nobody acts on it or chases it. The reason
 * given is free text and stays in Vigil.
 */
export function cancellationEmail(facts: CancellationFacts): MessageText {
  const zone = facts.timeZone;
  return {
    subject: `Cancelled: critical EEG finding — ${facts.caseNumber}`,
    body: [
      `The critical EEG finding on case ${facts.caseNumber} (${facts.clientName}) was cancelled by the EEG monitoring team ` +
        `at ${formatInstantInZone(facts.cancelledAt, zone)}. No acknowledgement is needed; a link sent for it no longer works.`,
      "",
      `Finding: ${criticalFindingKindLabels[facts.kind]}`,
      `Raised: ${formatInstantInZone(facts.raisedAt, zone)}`,
      "",
      whyYou[facts.recipientKind],
    ].join("\n"),
  };
}

export function cancellationSms(facts: CancellationFacts): MessageText {
  const zone = facts.timeZone;
  return {
    subject: `Cancelled: critical EEG finding — ${facts.caseNumber}`,
    body:
      `Vigil: CANCELLED - the critical EEG finding on case ${facts.caseNumber} (${shortKind[facts.kind]}, raised ` +
      `${wallClockIn(facts.raisedAt, zone)}) was cancelled at ${clockTimeIn(facts.cancelledAt, zone)}. No acknowledgement needed.`,
  };
}
