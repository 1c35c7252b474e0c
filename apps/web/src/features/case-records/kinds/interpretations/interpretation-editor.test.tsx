import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRecords, testCase } from "../../testing/render-records";
import { interpretationView } from "./interpretation-view";

const caseItem = testCase({
  stage: "preview",
  recordingStartedAt: "2026-11-21T14:00:00.000Z",
  recordingEndedAt: "2026-11-22T14:00:00.000Z",
});

function renderEditor() {
  const onSubmit = vi.fn();
  const Editor = interpretationView.Editor;
  renderRecords(<Editor caseItem={caseItem} submitLabel="Save" onSubmit={onSubmit} onCancel={() => {}} />, {
    groups: ["reviewer"],
  });
  return { onSubmit };
}

function optionTexts(select: HTMLElement): string[] {
  return Array.from((select as HTMLSelectElement).options).map((option) => option.textContent ?? "");
}

describe("interpretation editor", () => {
  it("offers the ACNS terms as choices, not free text", async () => {
    const user = userEvent.setup();
    renderEditor();
    await user.click(await screen.findByRole("button", { name: "Add finding" }));

    const location = screen.getByLabelText(/^Finding 1 location/);
    expect(location.tagName).toBe("SELECT");
    expect(optionTexts(location)).toEqual([
      "Choose…",
      "Generalized (G)",
      "Lateralized (L)",
      "Bilateral independent (BI)",
      "Unilateral independent (UI)",
      "Multifocal (Mf)",
    ]);
    const pattern = screen.getByLabelText(/^Finding 1 pattern/);
    expect(pattern.tagName).toBe("SELECT");
    expect(optionTexts(pattern)).toEqual([
      "Choose…",
      "Periodic discharges (PD)",
      "Rhythmic delta activity (RDA)",
      "Spike-and-wave / sharp-and-wave (SW)",
    ]);
    expect(optionTexts(screen.getByLabelText(/^Finding 1 prevalence/))).toContain("Frequent (10–49%)");
    expect(optionTexts(screen.getByLabelText(/^Finding 1 plus modifier/))).toContain("+F superimposed fast");
    expect(optionTexts(screen.getByLabelText(/^Finding 1 duration/))).toContain("Very brief (<10 s)");

    const continuity = screen.getByLabelText("Continuity");
    expect(continuity.tagName).toBe("SELECT");
    expect(optionTexts(continuity)).toContain("Burst-suppression / burst-attenuation (≥50%)");
    expect(screen.getByLabelText("Voltage").tagName).toBe("SELECT");
    expect(screen.getByLabelText("Reactivity").tagName).toBe("SELECT");

    // The seizure choice carries the ACNS criteria of what is chosen.
    const classification = screen.getByLabelText("Seizure classification");
    await user.selectOptions(classification, "ESE");
    expect(
      screen.getByText(
        "An electrographic seizure for ≥10 continuous minutes, or for ≥20% of any 60-minute period of recording.",
      ),
    ).toBeTruthy();
  });

  it("asks for a finding's location, pattern and prevalence before saving", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderEditor();
    await user.click(await screen.findByRole("button", { name: "Add finding" }));
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Finding 1 location is required")).toBeTruthy();
    expect(screen.getByText("Finding 1 pattern is required")).toBeTruthy();
    expect(screen.getByText("Finding 1 prevalence is required")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("submits the report with structured background and findings", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderEditor();
    // A new report covers the recording, in the client's zone.
    expect(((await screen.findByLabelText(/^Period from/)) as HTMLInputElement).value).toBe("2026-11-21T09:00");
    expect((screen.getByLabelText(/^Period to/) as HTMLInputElement).value).toBe("2026-11-22T09:00");
    fireEvent.change(screen.getByLabelText(/^Period from/), { target: { value: "2026-11-21T10:00" } });

    await user.click(screen.getByLabelText("History"));
    await user.paste("Cardiac arrest, day 2.");
    await user.selectOptions(screen.getByLabelText("Continuity"), "discontinuous");
    await user.selectOptions(screen.getByLabelText("Voltage"), "low");
    await user.selectOptions(screen.getByLabelText("Reactivity"), "absent");
    await user.type(screen.getByLabelText("Posterior dominant rhythm (Hz)"), "6.5");

    await user.click(screen.getByRole("button", { name: "Add finding" }));
    await user.selectOptions(screen.getByLabelText(/^Finding 1 location/), "L");
    await user.selectOptions(screen.getByLabelText(/^Finding 1 pattern/), "PD");
    await user.selectOptions(screen.getByLabelText(/^Finding 1 plus modifier/), "+F");
    await user.selectOptions(screen.getByLabelText(/^Finding 1 prevalence/), "frequent");
    await user.selectOptions(screen.getByLabelText(/^Finding 1 duration/), "brief");
    await user.type(screen.getByLabelText("Finding 1 frequency (Hz)"), "1.5");
    await user.selectOptions(screen.getByLabelText("Finding 1 evolution"), "fluctuating");
    await user.click(screen.getByLabelText("Finding 1 stimulus-induced (SI)"));
    expect(screen.getByText("Finding 1: LPD+F")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Add finding" }));
    await user.selectOptions(screen.getByLabelText(/^Finding 2 location/), "G");
    await user.selectOptions(screen.getByLabelText(/^Finding 2 pattern/), "RDA");
    await user.selectOptions(screen.getByLabelText(/^Finding 2 prevalence/), "rare");
    await user.click(screen.getByRole("button", { name: "Add finding" }));
    await user.click(screen.getByRole("button", { name: "Remove finding 3" }));

    await user.selectOptions(screen.getByLabelText("Seizure classification"), "IIC");
    await user.click(screen.getByLabelText("Impression"));
    await user.paste("Abnormal: LPDs+F over the left hemisphere.");
    await user.click(screen.getByRole("button", { name: "Save" }));

    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      reportType: "daily",
      periodFrom: "2026-11-21T15:00:00.000Z",
      periodTo: "2026-11-22T14:00:00.000Z",
      history: "Cardiac arrest, day 2.",
      // Not chosen in this editor: the coded impression is picked in the sign dialog.
      impressionCode: null,
      technicalDescription: "",
      background: {
        continuity: "discontinuous",
        symmetry: null,
        predominantFrequency: null,
        pdrHz: 6.5,
        voltage: "low",
        reactivity: "absent",
        stateChanges: null,
        notes: "",
      },
      findings: [
        {
          location: "L",
          pattern: "PD",
          plusModifier: "+F",
          prevalence: "frequent",
          duration: "brief",
          frequencyHz: 1.5,
          evolution: "fluctuating",
          stimulusInduced: true,
          notes: "",
        },
        {
          location: "G",
          pattern: "RDA",
          plusModifier: "none",
          prevalence: "rare",
          duration: null,
          frequencyHz: null,
          evolution: "static",
          stimulusInduced: false,
          notes: "",
        },
      ],
      seizures: { classification: "IIC", count: null, description: "" },
      impression: "Abnormal: LPDs+F over the left hemisphere.",
      clinicalCorrelation: "",
    });
  });

  it("refuses a period that ends before it starts", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderEditor();
    fireEvent.change(await screen.findByLabelText(/^Period to/), { target: { value: "2026-11-20T09:00" } });
    await user.click(screen.getByRole("button", { name: "Save" }));
    const periodTo = screen.getByLabelText(/^Period to/);
    await waitFor(() => expect(periodTo.getAttribute("aria-invalid")).toBe("true"));
    const field = periodTo.closest(".MuiFormControl-root") as HTMLElement;
    expect(within(field).getByText("Period to must not be before the start of the period")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });
});
