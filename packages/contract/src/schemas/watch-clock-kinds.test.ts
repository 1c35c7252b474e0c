import { describe, expect, it } from "vitest";
import { caseStages } from "./case-workflow.js";
import { clockAlertHref } from "./notifications.js";
import { clockKinds } from "./watch.js";
import { clockActionTabs, clockAlertKindLabels, clockKindDefinitions, clockKindLabels } from "./watch-clock-kinds.js";

describe("clock kinds defined once", () => {
  it("defines every kind, and the alerts and the board read their words and tab from that one definition", () => {
    expect(Object.keys(clockKindDefinitions).sort()).toEqual([...clockKinds].sort());
    for (const kind of clockKinds) {
      expect(clockKindLabels[kind]).toBe(clockKindDefinitions[kind].label);
      expect(clockAlertKindLabels[kind]).toBe(clockKindDefinitions[kind].alertLabel);
      expect(clockActionTabs[kind]).toBe(clockKindDefinitions[kind].step.tab);
    }
  });

  it("links an alert to the tab that stops its clock, on the case page of every stage", () => {
    for (const stage of caseStages) {
      for (const kind of clockKinds) {
        expect(clockAlertHref(stage, "c-1", kind)).toMatch(new RegExp(`/${clockKindDefinitions[kind].step.tab}$`));
      }
    }
  });
});
