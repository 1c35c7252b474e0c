import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { createBugReportRequestSchema } from "./bugs.js";
import { patientDetailsInputSchema } from "./cases.js";
import { clientInputSchema, contactInputSchema, usefulLinkInputSchema } from "./clients.js";
import { singleLineMessage, singleLineTextSchema } from "./common.js";
import { recordFindingAcknowledgementInputSchema } from "./critical-findings.js";
import { createUserRequestSchema } from "./users.js";

function messageAt(schema: z.ZodType, input: unknown, path: string): string | undefined {
  const parsed = schema.safeParse(input);
  return parsed.success ? undefined : parsed.error.issues.find((issue) => issue.path.join(".") === path)?.message;
}

const client = { name: "St Mary's", code: "STM", timezone: "America/Chicago" };

describe("single-line text fields", () => {
  it("refuse a line break, a tab and other control characters, saying so", () => {
    for (const text of [
      "Inject Hosp\r\nBcc: x",
      "a\nb",
      "a\rb",
      "a\tb",
      "a\u0007b",
      "a\u007fb",
      "a\u0085b",
      "a\u2028b",
    ]) {
      expect(singleLineTextSchema.safeParse(text).success, JSON.stringify(text)).toBe(false);
    }
    expect(messageAt(clientInputSchema, { ...client, name: "Inject Hosp\r\nBcc: x" }, "name")).toBe(singleLineMessage);
  });

  it("keep ordinary text, accents and symbols, and trim a trailing line break away", () => {
    expect(singleLineTextSchema.parse("  Hôpital Saint-Éloi — Unit 3 (ICU) №7 😀 \n")).toBe(
      "Hôpital Saint-Éloi — Unit 3 (ICU) №7 😀",
    );
  });

  it("cover the names and lines that reach e-mail, SMS and reports: clients, contacts, links, users, patients", () => {
    const broken = "x\ny";
    expect(messageAt(clientInputSchema, { ...client, city: broken }, "city")).toBe(singleLineMessage);
    expect(messageAt(clientInputSchema, { ...client, addressLine1: broken }, "addressLine1")).toBe(singleLineMessage);
    expect(messageAt(contactInputSchema, { name: broken }, "name")).toBe(singleLineMessage);
    expect(messageAt(contactInputSchema, { name: "Dr A", role: broken }, "role")).toBe(singleLineMessage);
    expect(messageAt(usefulLinkInputSchema, { title: broken, url: "https://example.org" }, "title")).toBe(
      singleLineMessage,
    );
    expect(messageAt(createUserRequestSchema, { username: "u", email: "u@example.org", name: broken }, "name")).toBe(
      singleLineMessage,
    );
    expect(messageAt(createBugReportRequestSchema, { title: broken }, "title")).toBe(singleLineMessage);
    expect(messageAt(recordFindingAcknowledgementInputSchema, { name: broken }, "name")).toBe(singleLineMessage);
    const patient = { mrn: "1", firstName: "A", lastName: "B" };
    expect(messageAt(patientDetailsInputSchema, { ...patient, lastName: broken }, "lastName")).toBe(singleLineMessage);
    expect(messageAt(patientDetailsInputSchema, { ...patient, location: { room: broken } }, "location.room")).toBe(
      singleLineMessage,
    );
  });

  it("leave multi-line fields their line breaks", () => {
    const notes = "first line\nsecond line\r\n\tindented";
    expect(clientInputSchema.parse({ ...client, notes }).notes).toBe(notes);
    expect(contactInputSchema.parse({ name: "Dr A", notes }).notes).toBe(notes);
    const patient = patientDetailsInputSchema.parse({ mrn: "1", firstName: "A", lastName: "B", indication: "a\nb" });
    expect(patient.indication).toBe("a\nb");
  });

  it("still say 'is required' for an empty or missing one", () => {
    expect(messageAt(clientInputSchema, { ...client, name: "  " }, "name")).toBe("is required");
    expect(messageAt(contactInputSchema, {}, "name")).toBe("is required");
  });
});
