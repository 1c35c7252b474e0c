import { readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { caseOrders, hl7Messages, interfaceProfileRevisions } from "../../db/schema.js";

/**
 * Inbound HL7 tests: the fixture messages under `modules/interfaces/fixtures/` (Epic- and Cerner-style feeds with
 * `{{KEY}}` placeholders), filled and with segments ended by `\r` as on the wire, and a client's interface profile.
 */
const fixtureFolder = new URL("../../modules/interfaces/fixtures/", import.meta.url);

export type FixtureName = "epic-orm-o01" | "cerner-oml-o21" | "epic-adt";

const defaults: Record<string, string> = {
  FACILITY: "UCHMC",
  AUTHORITY: "UCHMC",
  CONTROL_CODE: "NW",
  MRN: "E1234567",
  LAST: "DOE",
  FIRST: "JANE",
  PLACER: "ORD778899",
  VISIT: "V998877",
  PRIORITY: "R",
  SERVICE_CODE: "95716",
  SERVICE_TEXT: "EEG CONT W VIDEO 12-26H",
  CANCEL_REASON: "",
  EVENT: "A08",
  DOB: "19700501",
  UNIT: "4W",
  ROOM: "412",
  BED: "B",
  DISCHARGE: "",
};

export function fixtureMessage(name: FixtureName, values: Record<string, string> = {}): string {
  const text = readFileSync(new URL(`${name}.hl7`, fixtureFolder), "utf8");
  const filled = text.replace(/\{\{([A-Z_]+)\}\}/g, (_, key: string) => values[key] ?? defaults[key] ?? "");
  return filled.trimEnd().split("\n").join("\r");
}

let counter = 0;
/** A control id no other test of the run uses. */
export function nextControlId(prefix = "T"): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36).toUpperCase()}${counter}`;
}

/** A client's interface profile revision, written as the profile service would (its next revision). */
export async function addInterfaceProfile(
  db: Db,
  clientId: string,
  identity: { sendingApplication: string; sendingFacility: string; mrnAssigningAuthority?: string },
  options: { enabled?: boolean; visitNumberSource?: "PV1-19" | "PID-18" } = {},
): Promise<void> {
  const existing = await db
    .select({ revision: interfaceProfileRevisions.revision })
    .from(interfaceProfileRevisions)
    .where(eq(interfaceProfileRevisions.clientId, clientId));
  await db.insert(interfaceProfileRevisions).values({
    clientId,
    revision: existing.length + 1,
    enabled: options.enabled ?? true,
    sendingApplication: identity.sendingApplication,
    sendingFacility: identity.sendingFacility,
    mrnAssigningAuthority: identity.mrnAssigningAuthority ?? identity.sendingFacility,
    visitNumberSource: options.visitNumberSource ?? "PV1-19",
    receivingApplication: "EPICCARE",
    receivingFacility: identity.sendingFacility,
    destination: null,
    resultStyle: "ORU^R01",
    hl7Version: "2.5.1",
    orderStatusUpdates: false,
    authorUsername: "test",
  });
}

export async function inboundRow(db: Db, controlId: string) {
  const rows = await db.select().from(hl7Messages).where(eq(hl7Messages.controlId, controlId));
  return rows;
}

export async function orderOfPlacer(db: Db, placer: string) {
  return db.select().from(caseOrders).where(eq(caseOrders.placerOrderNumber, placer));
}

/** MSA-1, MSA-3 and the first ERR-3 code of an ACK. */
export function readAckText(ack: string | null): { code: string; text: string; error: string; location: string } {
  const segments = (ack ?? "").split("\r").map((segment) => segment.split("|"));
  const msa = segments.find((fields) => fields[0] === "MSA") ?? [];
  const err = segments.find((fields) => fields[0] === "ERR") ?? [];
  return {
    code: msa[1] ?? "",
    text: msa[3] ?? "",
    error: (err[3] ?? "").split("^")[0] ?? "",
    location: err[2] ?? "",
  };
}
