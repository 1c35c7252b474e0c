import { describe, expect, it } from "vitest";
import { deepEqual, reapplyChanges } from "./reapply-changes";

type Note = { category: string; body: string; tags?: string[]; notification?: { name: string; at: string } | null };

describe("reapplyChanges", () => {
  it("puts the fields the user changed onto their newer version and keeps the rest of theirs", () => {
    const base: Note = { category: "general", body: "Leads checked." };
    const mine: Note = { category: "general", body: "Leads checked; Fp1 re-gelled." };
    const theirs: Note = { category: "handoff", body: "Leads checked." };
    expect(reapplyChanges(base, mine, theirs)).toEqual({
      data: { category: "handoff", body: "Leads checked; Fp1 re-gelled." },
      changed: ["body"],
      overlapping: [],
    });
  });

  it("keeps the user's words where both changed the same field, and says so", () => {
    const base: Note = { category: "general", body: "Old" };
    const mine: Note = { category: "general", body: "Mine" };
    const theirs: Note = { category: "issue", body: "Theirs" };
    const result = reapplyChanges(base, mine, theirs);
    expect(result.data).toEqual({ category: "issue", body: "Mine" });
    expect(result.changed).toEqual(["body"]);
    expect(result.overlapping).toEqual(["body"]);
  });

  it("does not count a field as overlapping when both made the same change", () => {
    const result = reapplyChanges<Note>(
      { category: "general", body: "a" },
      { category: "issue", body: "a" },
      { category: "issue", body: "b" },
    );
    expect(result).toEqual({ data: { category: "issue", body: "b" }, changed: ["category"], overlapping: [] });
  });

  it("compares nested objects and arrays by value, so an untouched sub-form is not taken from the user", () => {
    const notification = { name: "Dr. Adams", at: "2026-11-22T03:00:00.000Z" };
    const base: Note = { category: "general", body: "x", tags: ["a"], notification };
    // A copy with the same values (as a form produces) is not a change.
    const mine: Note = { category: "general", body: "y", tags: ["a"], notification: { ...notification } };
    const theirs: Note = {
      category: "general",
      body: "x",
      tags: ["a", "b"],
      notification: { name: "Dr. Adams", at: "2026-11-22T03:05:00.000Z" },
    };
    const result = reapplyChanges(base, mine, theirs);
    expect(result.data).toEqual({ ...theirs, body: "y" });
    expect(result.changed).toEqual(["body"]);
  });

  it("takes a whole changed sub-object from the user and a cleared field as cleared", () => {
    const base: Note = { category: "general", body: "x", notification: { name: "A", at: "t1" } };
    const mine: Note = { category: "general", body: "x", notification: null };
    const theirs: Note = { category: "handoff", body: "x", notification: { name: "A", at: "t1" } };
    expect(reapplyChanges(base, mine, theirs).data).toEqual({ category: "handoff", body: "x", notification: null });

    const withoutTags: Note = { category: "general", body: "x" };
    const removed = reapplyChanges<Note>({ ...withoutTags, tags: ["a"] }, withoutTags, { ...withoutTags, tags: ["a"] });
    expect(removed.data).toEqual(withoutTags);
    expect(removed.changed).toEqual(["tags"]);
  });

  it("leaves their version as it is when the user changed nothing", () => {
    const base: Note = { category: "general", body: "x" };
    const theirs: Note = { category: "issue", body: "z" };
    expect(reapplyChanges(base, { ...base }, theirs)).toEqual({ data: theirs, changed: [], overlapping: [] });
  });
});

describe("deepEqual", () => {
  it("compares JSON-like values structurally", () => {
    expect(deepEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(deepEqual({ a: [1, 2] }, { a: [2, 1] })).toBe(false);
    expect(deepEqual({ a: undefined }, {})).toBe(true);
    expect(deepEqual(null, {})).toBe(false);
    expect(deepEqual([], {})).toBe(false);
    expect(deepEqual("1", 1)).toBe(false);
  });
});
