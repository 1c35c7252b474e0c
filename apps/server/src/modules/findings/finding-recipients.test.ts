import { describe, expect, it } from "vitest";
import { type PlannedRecipient, type RecipientPool, recipientsAtLevel } from "./finding-recipients.js";

const contact = (name: string): PlannedRecipient => ({
  kind: "contact",
  name,
  contactId: `contact-${name}`,
  userSub: null,
  username: null,
  channels: [{ channel: "sms", destination: "+15555550100" }],
});
const user = (kind: "reviewer" | "coordinator", username: string): PlannedRecipient => ({
  kind,
  name: username,
  contactId: null,
  userSub: `sub-${username}`,
  username,
  channels: [{ channel: "email", destination: `${username}@vigil.test` }],
});

const pool: RecipientPool = {
  flaggedContacts: [contact("first"), contact("second"), contact("third")],
  reviewer: user("reviewer", "rev"),
  coordinators: [user("coordinator", "coord-a"), user("coordinator", "coord-b")],
};
const names = (level: number, from: RecipientPool = pool) => recipientsAtLevel(level, from).map((r) => r.name);

describe("who is told of a critical finding", () => {
  it("at the raise: the first flagged contact and the case's reviewer, not the coordinators", () => {
    expect(names(0)).toEqual(["first", "rev"]);
  });

  it("at the raise, when no contact is flagged: the reviewer and every coordinator", () => {
    expect(names(0, { ...pool, flaggedContacts: [] })).toEqual(["rev", "coord-a", "coord-b"]);
    expect(names(0, { ...pool, flaggedContacts: [], reviewer: undefined })).toEqual(["coord-a", "coord-b"]);
  });

  it("at the n-th escalation: the (n+1)-th flagged contact and every coordinator", () => {
    expect(names(1)).toEqual(["second", "coord-a", "coord-b"]);
    expect(names(2)).toEqual(["third", "coord-a", "coord-b"]);
  });

  it("once the list of contacts is spent: the coordinators alone, at every further escalation", () => {
    expect(names(3)).toEqual(["coord-a", "coord-b"]);
    expect(names(7)).toEqual(["coord-a", "coord-b"]);
  });

  it("tells a reviewer who is also a coordinator once at one level", () => {
    const both = { ...pool, flaggedContacts: [], coordinators: [user("coordinator", "rev"), user("coordinator", "x")] };
    expect(recipientsAtLevel(0, both).map((r) => [r.kind, r.name])).toEqual([
      ["reviewer", "rev"],
      ["coordinator", "x"],
    ]);
  });
});
