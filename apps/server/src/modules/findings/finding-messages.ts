import {
  type CriticalFindingKind,
  criticalFindingKindLabels,
  type FindingRecipientKind,
  formatInstantInZone,
  pages,
} from "@vigil/contract";

/*
 * What a critical finding's e-mail and SMS say (PRODUCT.md §11): the minimum a clinician needs to act — client, case
 * number, kind, the EEG onset and when it was raised in the client's time zone — and the acknowledgement link with its
 * expiry. Messages leave the building over SMTP and SMS gateways, so the patient's name and MRN appear only where the
 * operator turned FINDING_MESSAGES_INCLUDE_PATIENT on, and the free-text description never (it may name anyone).
 */

export type FindingMessageFacts = {
  caseNumber: string;
  clientName: string;
  timeZone: string;
  kind: CriticalFindingKind;
  onsetAt: Date;
  raisedAt: Date;
  /** The patient as the case knows them; shown only with `includePatient`. */
  patient: { name: string | null; mrn: string | null };
  recipientKind: FindingRecipientKind;
  token: string;
  linkExpiresAt: Date;
};

/** The address the link opens: the token stays in the fragment, which browsers never send to a server's log. */
export function acknowledgementLinkOf(publicUrl: string, token: string): string {
  return `${publicUrl}/#${pages["finding-acknowledgement"].href({ token })}`;
}

const whyYou: Record<FindingRecipientKind, string> = {
  contact: "You receive this because the client lists you to be told of critical EEG findings.",
  reviewer: "You receive this as the case's reviewer.",
  coordinator:
    "You receive this as a Vigil coordinator: nobody has acknowledged the finding yet, or no contact is set.",
};

function patientLine(facts: FindingMessageFacts): string | undefined {
  const { name, mrn } = facts.patient;
  if (!name && !mrn) return undefined;
  return `Patient: ${[name, mrn ? `MRN ${mrn}` : null].filter(Boolean).join(", ")}`;
}

export function findingEmail(
  facts: FindingMessageFacts,
  options: { publicUrl: string; includePatient: boolean },
): { subject: string; body: string } {
  const zone = facts.timeZone;
  const patient = options.includePatient ? patientLine(facts) : undefined;
  const lines = [
    "A critical EEG finding needs your acknowledgement.",
    "",
    `Client: ${facts.clientName}`,
    `Case: ${facts.caseNumber}`,
    ...(patient ? [patient] : []),
    `Finding: ${criticalFindingKindLabels[facts.kind]}`,
    `EEG onset: ${formatInstantInZone(facts.onsetAt, zone)}`,
    `Raised: ${formatInstantInZone(facts.raisedAt, zone)}`,
    "",
    `Acknowledge: ${acknowledgementLinkOf(options.publicUrl, facts.token)}`,
    `The link works once and expires ${formatInstantInZone(facts.linkExpiresAt, zone)}.`,
    "",
    whyYou[facts.recipientKind],
  ];
  return { subject: `Critical EEG finding — ${facts.caseNumber}`, body: lines.join("\n") };
}

export function findingSms(
  facts: FindingMessageFacts,
  options: { publicUrl: string; includePatient: boolean },
): { subject: string; body: string } {
  const zone = facts.timeZone;
  const patient = options.includePatient ? patientLine(facts) : undefined;
  const body = [
    `Vigil: critical EEG finding, ${facts.clientName}, case ${facts.caseNumber}${patient ? ` (${patient})` : ""}:`,
    `${criticalFindingKindLabels[facts.kind]}, onset ${formatInstantInZone(facts.onsetAt, zone)}.`,
    `Acknowledge: ${acknowledgementLinkOf(options.publicUrl, facts.token)}`,
    `(expires ${formatInstantInZone(facts.linkExpiresAt, zone)})`,
  ].join(" ");
  return { subject: `Critical EEG finding — ${facts.caseNumber}`, body };
}
