import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { DetailList, DetailRow } from "./detail-list";

describe("a read-only record as a definition list", () => {
  it("pairs each label as a term with its value as the definition, a blank value shown as a dash", () => {
    render(
      <DetailList labelWidth={200}>
        <DetailRow label="Name">Mercy General</DetailRow>
        <DetailRow label="Phone">{""}</DetailRow>
        <DetailRow label="Open cases">{String(0)}</DetailRow>
      </DetailList>,
    );

    const terms = screen.getAllByRole("term").map((term) => term.textContent);
    const definitions = screen.getAllByRole("definition").map((definition) => definition.textContent);
    expect(terms).toEqual(["Name", "Phone", "Open cases"]);
    expect(definitions).toEqual(["Mercy General", "—", "0"]);
    expect(within(screen.getAllByRole("definition")[1] as HTMLElement).getByText("—").tagName).toBe("SPAN");
  });
});
