import { describe, expect, it } from "vitest";
import {
  acknowledgementLinkOf,
  cancellationEmail,
  cancellationSms,
  type FindingMessageFacts,
  findingEmail,
  findingSms,
} from "./finding-messages.js";

const token = "0123456789abcdef0123456789abcdef.t9x2kg.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ";
const facts: FindingMessageFacts = {
  caseNumber: "CM-2026-000123",
  clientName: "Riverside General",
  timeZone: "America/Chicago",
  kind: "electrographic-status-epilepticus",
  onsetAt: new Date("2026-03-01T15:58:00Z"),
  raisedAt: new Date("2026-03-01T16:04:00Z"),
  dueAt: new Date("2026-03-01T16:19:00Z"),
  level: 0,
  patient: { name: "Jordan Quill", mrn: "MRN-777001" },
  recipientKind: "contact",
  token,
  linkExpiresAt: new Date("2026-03-02T16:04:00Z"),
  caseHref: "/cases/monitoring/4f1c/overview",
  teamPhone: "+1 312 555 0199",
};
const publicUrl = "https://vigil.example.org";
const options = { publicUrl, includePatient: false };
const link = `${publicUrl}/#/acknowledge/${token}`;
const staff: FindingMessageFacts = { ...facts, recipientKind: "reviewer", token: null };

/** GSM 03.38's basic characters: one outside them turns every segment of a text into 70 characters. */
const gsmBasic = /^[A-Za-z0-9 @£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ!"#¤%&'()*+,\-./:;<=>?¡ÄÖÑÜ§¿äöñüà]*$/;

describe("a critical finding's messages", () => {
  it("put the token in the link's fragment, which browsers never send to a server", () => {
    expect(acknowledgementLinkOf(publicUrl, token)).toBe(link);
  });

  it("say client, case, kind, both times and by when to acknowledge in the client's zone, with the link", () => {
    const email = findingEmail(facts, options);
    expect(email.subject).toBe("Critical EEG finding — acknowledge by 10:19 CST — CM-2026-000123");
    expect(email.body).toMatch(/^A critical EEG finding needs your acknowledgement by 10:19 CST\./);
    expect(email.body).toContain("Client: Riverside General");
    expect(email.body).toContain("Case: CM-2026-000123");
    expect(email.body).toContain("Finding: Electrographic status epilepticus (ESE)");
    expect(email.body).toContain("EEG onset: Mar 1, 2026, 09:58 CST (America/Chicago)");
    expect(email.body).toContain("Raised: Mar 1, 2026, 10:04 CST (America/Chicago)");
    expect(email.body).toContain("Acknowledge by: Mar 1, 2026, 10:19 CST (America/Chicago)");
    expect(email.body).toContain(`Acknowledge: ${link}`);
    expect(email.body).toContain("expires Mar 2, 2026, 10:04 CST (America/Chicago)");
    expect(email.body).toContain("Or call the EEG monitoring team: +1 312 555 0199");
  });

  it("mark an escalation as one, in the subject and the first line, so it never reads like the first message", () => {
    const email = findingEmail({ ...facts, level: 2 }, options);
    expect(email.subject).toBe(
      "Escalation 2: critical EEG finding NOT yet acknowledged (acknowledge by 10:19 CST) — CM-2026-000123",
    );
    expect(email.body.split("\n")[0]).toContain("Escalation 2: this critical EEG finding was to be acknowledged by");
    expect(email.body).toContain("Acknowledge by: Mar 1, 2026, 10:19 CST (America/Chicago) (overdue)");
    const sms = findingSms({ ...facts, level: 2 }, options);
    expect(sms.body).toMatch(/^Vigil ESCALATION 2: critical EEG finding NOT acknowledged/);
  });

  it("fit a text in plain characters, saying the zone once and ending with the link", () => {
    const sms = findingSms(facts, options);
    expect(sms.body).toBe(
      `Vigil critical EEG finding, case CM-2026-000123: ESE, onset 09:58. Acknowledge by 10:19 CST: ${link}`,
    );
    expect(sms.body).toMatch(gsmBasic);
    expect(sms.body.match(/CST/g)).toHaveLength(1);
    expect(sms.body).not.toContain("America/Chicago");
    // Everything but the signed link (over 100 characters on its own) fits in under 100.
    expect(sms.body.replace(link, "").length).toBeLessThan(100);
    // Two segments of 153 at most, where the old text took three.
    expect(sms.body.length).toBeLessThanOrEqual(306);
  });

  it("never name the patient by default", () => {
    for (const message of [findingEmail(facts, options), findingSms(facts, options)]) {
      for (const secret of ["Jordan", "Quill", "MRN-777001", "Patient"]) {
        expect(message.body).not.toContain(secret);
        expect(message.subject).not.toContain(secret);
      }
    }
  });

  it("name the patient and MRN where the operator enabled it, and still keep the subject free of them", () => {
    const email = findingEmail(facts, { publicUrl, includePatient: true });
    expect(email.body).toContain("Patient: Jordan Quill, MRN MRN-777001");
    expect(email.subject).not.toContain("Jordan");
    expect(findingSms(facts, { publicUrl, includePatient: true }).body).toContain("Jordan Quill, MRN MRN-777001");
  });

  it("inform staff without any acknowledgement link, sending them to the case to record the hospital's answer", () => {
    const email = findingEmail(staff, options);
    expect(email.subject).toBe(
      "For information: critical EEG finding, hospital to acknowledge by 10:19 CST — CM-2026-000123",
    );
    expect(email.body).toContain("this message does not acknowledge it for them");
    expect(email.body).toContain(`Open the case: ${publicUrl}/#/cases/monitoring/4f1c/overview`);
    expect(email.body).not.toContain("/acknowledge/");
    expect(email.body).toContain("as the case's reviewer");
    const escalated = findingEmail({ ...staff, recipientKind: "coordinator", level: 1 }, options);
    expect(escalated.subject).toMatch(/^Escalation 1: critical EEG finding not acknowledged by the hospital/);
    expect(escalated.body).toContain("record their acknowledgement on the case");
    expect(escalated.body).toContain("as a Vigil coordinator");
  });

  it("tell of a cancellation in a few words, without the free-text reason", () => {
    const cancelled = { ...facts, cancelledAt: new Date("2026-03-01T16:10:00Z") };
    const email = cancellationEmail(cancelled);
    expect(email.subject).toBe("Cancelled: critical EEG finding — CM-2026-000123");
    expect(email.body).toContain("was cancelled by the EEG monitoring team at Mar 1, 2026, 10:10 CST");
    expect(email.body).toContain("No acknowledgement is needed");
    const sms = cancellationSms(cancelled);
    expect(sms.body).toBe(
      "Vigil: CANCELLED - the critical EEG finding on case CM-2026-000123 (ESE, raised 10:04) was cancelled at 10:10 CST. No acknowledgement needed.",
    );
    expect(sms.body.length).toBeLessThanOrEqual(160);
    expect(sms.body).toMatch(gsmBasic);
  });
});
