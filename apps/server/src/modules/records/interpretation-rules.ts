import type { Author, InterpretationData, RevisionChange } from "@vigil/contract";

/**
 * What the server decides about an interpretation, beside the reviewer's words: whether it is signed, by whom
 * and when, and the addenda added after signing. Stored in the record's `meta`, never taken from a request.
 */
export type InterpretationAddendum = { revision: number; text: string; author: Author; createdAt: string };
export type InterpretationMeta = {
  status: "draft" | "final";
  signedBy: Author | null;
  signedAt: string | null;
  addenda: InterpretationAddendum[];
};

export const draftInterpretationMeta: InterpretationMeta = {
  status: "draft",
  signedBy: null,
  signedAt: null,
  addenda: [],
};

export function interpretationMetaOf(meta: unknown): InterpretationMeta {
  const value = (meta ?? {}) as Partial<InterpretationMeta>;
  return {
    status: value.status === "final" ? "final" : "draft",
    signedBy: value.signedBy ?? null,
    signedAt: value.signedAt ?? null,
    addenda: Array.isArray(value.addenda) ? value.addenda : [],
  };
}

/**
 * Why `change` may not be applied to an interpretation in this state (undefined when it may). A signed report is
 * what the referring physician read: it never changes and never disappears; corrections are addenda beside it.
 */
export function interpretationChangeRefusal(change: RevisionChange, meta: InterpretationMeta): string | undefined {
  const signed = meta.status === "final";
  switch (change) {
    case "edit":
      return signed ? "This interpretation is signed; add an addendum instead of editing it." : undefined;
    case "delete":
      return signed ? "A signed interpretation cannot be deleted; add an addendum to correct it." : undefined;
    case "sign":
      return signed ? "This interpretation is already signed." : undefined;
    case "addendum":
      return signed
        ? undefined
        : "Addenda are added to a signed interpretation; this one is a draft (edit it instead).";
    default:
      return undefined;
  }
}

/** An interpretation is signed with its impression (ACNS Guideline 7: the interpretation is the impression). */
export function lacksImpression(data: Pick<InterpretationData, "impression">): boolean {
  return data.impression.trim().length === 0;
}
