import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ImpedanceData, ImpedanceItem, ImpedanceList } from "@vigil/contract";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../../test/fake-server";
import { caseId, itemFields, recordApi, renderRecords, testCase, writable } from "../../testing/render-records";
import { ImpedanceItemBody, ImpedanceSummary } from "./impedance-item";
import { impedanceView } from "./impedance-view";

const caseItem = testCase();

function impedanceList(thresholdKohm: number): ImpedanceList {
  return {
    caseId,
    stage: "monitoring",
    write: writable,
    items: [],
    total: 0,
    limit: 50,
    offset: 0,
    summary: {
      protocolRevision: 3,
      thresholdKohm,
      cautionKohm: 5,
      intervalHours: 24,
      lastCheckedAt: null,
      dueAt: null,
      overdue: false,
    },
  };
}

function renderEditor({ thresholdKohm = 10, initial }: { thresholdKohm?: number; initial?: ImpedanceData } = {}) {
  const onSubmit = vi.fn();
  const Editor = impedanceView.Editor;
  const rendered = renderRecords(
    <Editor caseItem={caseItem} initial={initial} submitLabel="Save" onSubmit={onSubmit} onCancel={() => {}} />,
    // The case's threshold comes with its list (from the tab's cache, else read once).
    { routes: { [`GET ${recordApi("impedances")}`]: () => envelope(impedanceList(thresholdKohm)) } },
  );
  return { ...rendered, onSubmit };
}

async function typeKohm(electrode: string, value: string) {
  const input = await screen.findByLabelText(`${electrode} (kΩ)`);
  await userEvent.clear(input);
  if (value) await userEvent.type(input, value);
  return input as HTMLInputElement;
}

describe("impedance editor", () => {
  it("colours each electrode as it is typed: 4.9 good, 5 caution, the threshold caution, above it flagged", async () => {
    renderEditor({ thresholdKohm: 10 });
    expect(await screen.findByText("Flagged: above 10 kΩ")).toBeTruthy();
    const expectations: [string, string, string, string][] = [
      ["Fp1", "4.9", "good", "Good"],
      ["Fp2", "5", "caution", "Caution"],
      ["T7", "10", "caution", "Caution"],
      ["T8", "10.1", "flagged", "Flagged"],
    ];
    for (const [electrode, value, level, word] of expectations) {
      const input = await typeKohm(electrode, value);
      expect(input.dataset.level).toBe(level);
      // The word is tied to the box, so the level is not told by colour alone.
      const description = document.getElementById(input.getAttribute("aria-describedby") ?? "");
      expect(description?.textContent).toBe(word);
    }
    expect((screen.getByLabelText("Cz (kΩ)") as HTMLInputElement).dataset.level).toBe("not-measured");
  });

  it("uses the threshold of the case's protocol", async () => {
    renderEditor({ thresholdKohm: 7 });
    expect(await screen.findByText("Flagged: above 7 kΩ")).toBeTruthy();
    expect((await typeKohm("Cz", "7")).dataset.level).toBe("caution");
    expect((await typeKohm("Cz", "8")).dataset.level).toBe("flagged");
  });

  it("says which box is wrong and sends nothing until a value is valid", async () => {
    const { onSubmit } = renderEditor();
    await typeKohm("O1", "abc");
    expect(await screen.findByText("must be a number")).toBeTruthy();
    await typeKohm("O1", "2000");
    expect(await screen.findByText("must be at most 1000")).toBeTruthy();
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText("O1 (kΩ)").getAttribute("aria-invalid")).toBe("true");
  });

  it("asks for at least one electrode", async () => {
    const { onSubmit } = renderEditor();
    await userEvent.click(await screen.findByRole("button", { name: "Save" }));
    expect(await screen.findByText("Electrodes: enter at least one electrode")).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it("submits the measured electrodes in montage order, the time read in the client's zone", async () => {
    const { onSubmit } = renderEditor();
    fireEvent.change(await screen.findByLabelText(/^Checked at/), { target: { value: "2026-11-22T09:14" } });
    await typeKohm("O2", "12");
    await typeKohm("Fp1", "3.5");
    await userEvent.click(screen.getByLabelText("Notes"));
    await userEvent.paste("O2 re-gelled");
    await userEvent.click(screen.getByRole("button", { name: "Save" }));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(1));
    expect(onSubmit.mock.calls[0]?.[0]).toEqual({
      // 09:14 in New York (EST) is 14:14 UTC.
      checkedAt: "2026-11-22T14:14:00.000Z",
      values: [
        { electrode: "Fp1", kohm: 3.5 },
        { electrode: "O2", kohm: 12 },
      ],
      notes: "O2 re-gelled",
    });
  });

  it("starts an edit from the saved check", async () => {
    renderEditor({
      initial: { checkedAt: "2026-11-22T14:14:00.000Z", values: [{ electrode: "C3", kohm: 6 }], notes: "" },
    });
    const c3 = (await screen.findByLabelText("C3 (kΩ)")) as HTMLInputElement;
    expect(c3.value).toBe("6");
    expect(c3.dataset.level).toBe("caution");
    expect((screen.getByLabelText(/^Checked at/) as HTMLInputElement).value).toBe("2026-11-22T09:14");
  });
});

describe("impedance check", () => {
  it("shows each electrode with its value, an icon and a word, as the server judged it", async () => {
    const item: ImpedanceItem = {
      ...itemFields("5d1e2f3a-0000-4000-8000-000000000101"),
      kind: "impedance",
      data: {
        checkedAt: "2026-11-22T14:14:00.000Z",
        values: [
          { electrode: "Fp1", kohm: 4.9 },
          { electrode: "Fp2", kohm: 5 },
          { electrode: "T7", kohm: 10 },
          { electrode: "O2", kohm: 12.5 },
        ],
        notes: "",
      },
      thresholdKohm: 10,
      flagged: ["O2"],
      caution: ["Fp2", "T7"],
    };
    renderRecords(<ImpedanceItemBody item={item} caseItem={caseItem} />);
    expect(await screen.findByText("Flagged (above 10 kΩ): O2")).toBeTruthy();
    expect(screen.getByText("Caution (5–10 kΩ): Fp2, T7")).toBeTruthy();
    const grid = screen.getByRole("list", { name: /^Electrode impedances/ });
    const cells = within(grid).getAllByRole("listitem");
    const cellOf = (electrode: string) => cells.find((cell) => cell.textContent?.startsWith(electrode));
    expect(cellOf("Fp1")?.textContent).toBe("Fp14.9 kΩGood");
    expect(cellOf("Fp2")?.textContent).toBe("Fp25 kΩCaution");
    expect(cellOf("T7")?.textContent).toBe("T710 kΩCaution");
    expect(cellOf("O2")?.textContent).toBe("O212.5 kΩFlagged");
    expect(cellOf("Cz")?.textContent).toBe("Cznot measured");
  });
});

describe("impedance summary", () => {
  it("names the protocol's threshold and raises an alert when a check is overdue", async () => {
    const list: ImpedanceList = {
      ...impedanceList(10),
      summary: {
        ...impedanceList(10).summary,
        lastCheckedAt: "2026-11-21T14:14:00.000Z",
        dueAt: "2026-11-22T14:14:00.000Z",
        overdue: true,
      },
    };
    renderRecords(<ImpedanceSummary list={list} caseItem={caseItem} />);
    const alert = await screen.findByRole("alert");
    expect(alert.textContent).toContain("Overdue: an impedance check was due Nov 22, 2026, 09:14 EST");
    expect(screen.getByText(/Threshold 10 kΩ from protocol revision 3/)).toBeTruthy();
  });
});
