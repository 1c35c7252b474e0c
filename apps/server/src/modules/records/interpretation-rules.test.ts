import { describe, expect, it } from "vitest";
import {
  draftInterpretationMeta,
  interpretationChangeRefusal,
  interpretationMetaOf,
  lacksImpression,
} from "./interpretation-rules.js";

const signed = {
  ...draftInterpretationMeta,
  status: "final" as const,
  signedBy: { sub: null, username: "reviewer", name: "Dr. Riley Reviewer" },
  signedAt: "2026-01-01T00:00:00.000Z",
};

describe("interpretationChangeRefusal", () => {
  it("lets a draft be edited, deleted and signed, but not amended", () => {
    for (const change of ["edit", "delete", "restore", "sign"] as const) {
      expect(interpretationChangeRefusal(change, draftInterpretationMeta), change).toBeUndefined();
    }
    expect(interpretationChangeRefusal("addendum", draftInterpretationMeta)).toMatch(/draft/);
  });

  it("keeps a signed report as it was: only addenda", () => {
    expect(interpretationChangeRefusal("edit", signed)).toMatch(/add an addendum instead/);
    expect(interpretationChangeRefusal("delete", signed)).toMatch(/cannot be deleted/);
    expect(interpretationChangeRefusal("sign", signed)).toMatch(/already signed/);
    expect(interpretationChangeRefusal("addendum", signed)).toBeUndefined();
  });
});

describe("interpretationMetaOf", () => {
  it("reads a missing or partial meta as a draft", () => {
    expect(interpretationMetaOf({})).toEqual(draftInterpretationMeta);
    expect(interpretationMetaOf(null)).toEqual(draftInterpretationMeta);
    expect(interpretationMetaOf(signed)).toEqual(signed);
  });
});

describe("lacksImpression", () => {
  it("is true for an empty or blank impression", () => {
    expect(lacksImpression({ impression: "" })).toBe(true);
    expect(lacksImpression({ impression: "  \n" })).toBe(true);
    expect(lacksImpression({ impression: "Normal EEG." })).toBe(false);
  });
});
