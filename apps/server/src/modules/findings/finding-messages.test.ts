import { describe, expect, it } from "vitest";
import { acknowledgementLinkOf, type FindingMessageFacts, findingEmail, findingSms } from "./finding-messages.js";

const facts: FindingMessageFacts = {
  caseNumber: "CM-2026-000123",
  clientName: "Riverside General",
  timeZone: "America/Chicago",
  kind: "electrographic-status-epilepticus",
  onsetAt: new Date("2026-03-01T15:58:00Z"),
  raisedAt: new Date("2026-03-01T16:04:00Z"),
  patient: { name: "Jordan Quill", mrn: "MRN-777001" },
  recipientKind: "contact",
  token: "0123456789abcdef0123456789abcdef.t9x2kg.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ",
  linkExpiresAt: new Date("2026-03-02T16:04:00Z"),
};
const publicUrl = "https://vigil.example.org";
const link = `${publicUrl}/#/acknowledge/${facts.token}`;

describe("a critical finding's messages", () => {
  it("put the token in the link's fragment, which browsers never send to a server", () => {
    expect(acknowledgementLinkOf(publicUrl, facts.token)).toBe(link);
  });

  it("say client, case, kind and both times in the client's zone, with the link and its expiry", () => {
    const email = findingEmail(facts, { publicUrl, includePatient: false });
    expect(email.subject).toBe("Critical EEG finding — CM-2026-000123");
    expect(email.body).toContain("Client: Riverside General");
    expect(email.body).toContain("Case: CM-2026-000123");
    expect(email.body).toContain("Finding: Electrographic status epilepticus (ESE)");
    expect(email.body).toContain("EEG onset: Mar 1, 2026, 09:58 CST (America/Chicago)");
    expect(email.body).toContain("Raised: Mar 1, 2026, 10:04 CST (America/Chicago)");
    expect(email.body).toContain(`Acknowledge: ${link}`);
    expect(email.body).toContain("expires Mar 2, 2026, 10:04 CST (America/Chicago)");

    const sms = findingSms(facts, { publicUrl, includePatient: false });
    for (const part of ["Riverside General", "CM-2026-000123", "(ESE)", "09:58 CST", link]) {
      expect(sms.body).toContain(part);
    }
  });

  it("never name the patient by default", () => {
    for (const message of [
      findingEmail(facts, { publicUrl, includePatient: false }),
      findingSms(facts, { publicUrl, includePatient: false }),
    ]) {
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

  it("say why the recipient is told", () => {
    expect(findingEmail({ ...facts, recipientKind: "reviewer" }, { publicUrl, includePatient: false }).body).toContain(
      "as the case's reviewer",
    );
    expect(
      findingEmail({ ...facts, recipientKind: "coordinator" }, { publicUrl, includePatient: false }).body,
    ).toContain("as a Vigil coordinator");
  });
});
