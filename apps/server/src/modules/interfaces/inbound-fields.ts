import type { Hl7Message } from "@medplum/core";
import type { InterfaceProfileRevision } from "@vigil/contract";
import type { AckOutcome, Hl7Error, Hl7ErrorCode, Hl7ErrorLocation } from "../../hl7/hl7-ack.js";
import { type Hl7Delimiters, unescapeHl7 } from "../../hl7/hl7-text.js";

/**
 * Reading the fields of an inbound message (docs/design/HL7.md, "Inbound", the conformance table): values unescaped
 * and trimmed, the first repetition, and every refusal as an `InboundProblem` naming the HL7 error code and where.
 */

/** What processing reads of the sender's interface profile (the latest revision, found by MSH-3/MSH-4). */
export type InboundProfile = Pick<
  InterfaceProfileRevision,
  "clientId" | "enabled" | "mrnAssigningAuthority" | "visitNumberSource"
>;

/** Why a message is answered AE (error: the sender may fix and resend) or AR (reject: never accepted here). */
export class InboundProblem extends Error {
  constructor(
    readonly outcome: Exclude<AckOutcome, "accept">,
    readonly code: Hl7ErrorCode,
    text: string,
    readonly location?: Hl7ErrorLocation,
  ) {
    super(text);
  }

  toHl7Error(): Hl7Error {
    return { code: this.code, text: this.message, ...(this.location ? { location: this.location } : {}) };
  }
}

/** A field address as in the conformance table: `PID-3.4` is segment PID, field 3, component 4. */
export type FieldAddress = { segment: string; field: number; component?: number };

export function addressText(address: FieldAddress): string {
  return `${address.segment}-${address.field}${address.component ? `.${address.component}` : ""}`;
}

function locationOf(address: FieldAddress): Hl7ErrorLocation {
  return {
    segment: address.segment,
    sequence: 1,
    field: address.field,
    ...(address.component ? { component: address.component } : {}),
  };
}

export class InboundReader {
  private readonly delimiters: Hl7Delimiters;

  constructor(readonly message: Hl7Message) {
    const { context } = message;
    this.delimiters = {
      field: context.fieldSeparator,
      component: context.componentSeparator,
      repetition: context.repetitionSeparator,
      escape: context.escapeCharacter,
      subcomponent: context.subcomponentSeparator,
    };
  }

  has(segment: string): boolean {
    return this.message.getSegment(segment) !== undefined;
  }

  /** The value at an address (first repetition, first component unless named), unescaped and trimmed; "" if absent. */
  value(address: FieldAddress): string {
    const segment = this.message.getSegment(address.segment);
    if (!segment) return "";
    const raw = segment.getComponent(address.field, address.component ?? 1);
    // HL7's explicit null ("") means "delete the value"; Vigil keeps what it has, as for an absent field.
    if (raw === '""') return "";
    return unescapeHl7(raw, this.delimiters).trim();
  }

  /** The first non-empty of several addresses (ORC-2 or else OBR-2), with the address it came from. */
  first(...addresses: FieldAddress[]): string {
    for (const address of addresses) {
      const found = this.value(address);
      if (found) return found;
    }
    return "";
  }

  /** A required value: its absence is AE 101 with the field's location. */
  required(address: FieldAddress, meaning: string): string {
    const found = this.value(address);
    if (!found) {
      throw new InboundProblem("error", 101, `${addressText(address)} (${meaning}) is required.`, locationOf(address));
    }
    return found;
  }

  /** A calendar date from a DT/DTM field (`YYYYMMDD…`) as `YYYY-MM-DD`; null when empty; AE 102 when not a date. */
  date(address: FieldAddress, meaning: string): string | null {
    const found = this.value(address);
    if (!found) return null;
    const match = /^(\d{4})(\d{2})(\d{2})(?:\d{0,6}(?:\.\d{1,4})?)?(?:[+-]\d{4})?$/.exec(found);
    const iso = match ? `${match[1]}-${match[2]}-${match[3]}` : "";
    const parsed = match ? new Date(`${iso}T00:00:00Z`) : undefined;
    if (!parsed || Number.isNaN(parsed.getTime()) || parsed.toISOString().slice(0, 10) !== iso) {
      throw new InboundProblem(
        "error",
        102,
        `${addressText(address)} (${meaning}) must be a date written YYYYMMDD; it is "${found.slice(0, 40)}".`,
        locationOf(address),
      );
    }
    if (parsed.getTime() > Date.now() + 86_400_000) {
      throw new InboundProblem(
        "error",
        102,
        `${addressText(address)} (${meaning}) is in the future.`,
        locationOf(address),
      );
    }
    return iso;
  }

  /** An XCN (ordering provider): "Given Family (id)", or whatever parts are there. */
  person(segment: string, field: number): string | null {
    const part = (component: number) => this.value({ segment, field, component });
    const name = [part(3), part(2)].filter(Boolean).join(" ");
    const id = part(1);
    if (!name) return id || null;
    return id ? `${name} (${id})` : name;
  }

  /** A CWE/CE: its text, else its code. */
  coded(segment: string, field: number): string | null {
    return this.value({ segment, field, component: 2 }) || this.value({ segment, field, component: 1 }) || null;
  }
}

export const problemAt = locationOf;
