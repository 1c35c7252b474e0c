import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { FormTextField } from "./form-text-field";
import { useContractForm } from "./use-contract-form";

const schema = z.object({ studyType: z.string().min(1), mrn: z.string().min(1) });

function StudyForm() {
  const form = useContractForm({ schema, defaultValues: { studyType: "", mrn: "" } });
  return (
    <form noValidate>
      <FormTextField
        control={form.control}
        name="studyType"
        label="Study type"
        select
        slotProps={{ select: { native: true } }}
      >
        <option value="">Choose…</option>
        <option value="routine">Routine EEG</option>
      </FormTextField>
      <FormTextField control={form.control} name="mrn" label="MRN" />
    </form>
  );
}

/** The floating label of a field, which MUI marks `data-shrink` when it sits above the box. */
function labelOf(text: string): HTMLElement {
  return screen.getByText(text, { selector: "label" });
}

describe("form fields", () => {
  it("keeps a select's label above its box, where the empty choice's text cannot run under it", () => {
    render(<StudyForm />);
    expect(screen.getByRole("combobox", { name: "Study type" })).toHaveProperty("value", "");
    expect(labelOf("Study type").getAttribute("data-shrink")).toBe("true");
    // An empty text field still shows its label inside the box, as a placeholder.
    expect(labelOf("MRN").getAttribute("data-shrink")).toBe("false");
  });
});
