import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { renderRecords, testCase } from "../../testing/render-records";
import { timeLogView } from "./time-log-view";

function renderEditor(caseItem = testCase({ hasVideo: true })) {
  const onSubmit = vi.fn();
  const Editor = timeLogView.Editor;
  renderRecords(<Editor caseItem={caseItem} submitLabel="Save" onSubmit={onSubmit} onCancel={() => {}} />);
  return { onSubmit };
}

describe("time-log editor", () => {
  it("submits a segment entered by hand, its times read in the client's zone", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderEditor();
    fireEvent.change(await screen.findByLabelText(/^Started at/), { target: { value: "2026-11-22T09:14" } });
    fireEvent.change(screen.getByLabelText(/^Ended at/), { target: { value: "2026-11-22T11:19" } });
    await user.selectOptions(screen.getByLabelText("Monitoring mode"), "intermittent");
    await user.type(screen.getByLabelText("Channels"), "21");
    await user.click(screen.getByLabelText("Billable"));
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      activity: "monitoring",
      mode: "intermittent",
      video: true,
      startedAt: "2026-11-22T14:14:00.000Z",
      endedAt: "2026-11-22T16:19:00.000Z",
      billable: false,
      channels: 21,
      notes: "",
    });
  });

  it("refuses an end before the start and leaves an empty end as running", async () => {
    const user = userEvent.setup();
    const { onSubmit } = renderEditor(testCase({ studyType: "ambulatory", hasVideo: false }));
    expect((await screen.findByLabelText("Monitoring mode")) as HTMLSelectElement).toHaveProperty(
      "value",
      "unmonitored",
    );
    fireEvent.change(screen.getByLabelText(/^Started at/), { target: { value: "2026-11-22T09:14" } });
    fireEvent.change(screen.getByLabelText(/^Ended at/), { target: { value: "2026-11-22T08:00" } });
    await user.click(screen.getByRole("button", { name: "Save" }));
    expect(await screen.findByText("Ended at must be after the start")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByLabelText(/^Ended at/), { target: { value: "" } });
    await user.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ mode: "unmonitored", video: false, endedAt: null });
  });

  it("says where billable time may lie around the recording, in the client's zone, and only while it is billable", async () => {
    const user = userEvent.setup();
    renderEditor(
      testCase({ recordingStartedAt: "2026-11-22T14:14:00.000Z", recordingEndedAt: "2026-11-23T14:14:00.000Z" }),
    );
    const hint =
      "Billable time must start at or after Nov 22, 2026, 03:14 EST (America/New_York), 6 h before the recording " +
      "started and end by Nov 23, 2026, 11:14 EST (America/New_York), 2 h after the recording ended.";
    expect(await screen.findByText(hint)).toBeTruthy();
    await user.click(screen.getByLabelText("Billable"));
    expect(screen.queryByText(hint)).toBeNull();
  });

  it("bounds billable time by the opening of the case until the recording start is set", async () => {
    renderEditor(testCase({ recordingStartedAt: null, recordingEndedAt: null }));
    expect(
      await screen.findByText(
        "Billable time must start at or after Nov 22, 2026, 03:14 EST (America/New_York), 6 h before the case was " +
          "opened (no recording start yet).",
      ),
    ).toBeTruthy();
  });
});
