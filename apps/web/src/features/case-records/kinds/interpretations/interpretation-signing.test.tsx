import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Author, InterpretationItem, InterpretationList } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../../test/fake-server";
import { RecordTab } from "../../components/record-tab";
import {
  caseId,
  itemFields,
  jsonBody,
  listOf,
  recordApi,
  renderRecords,
  staleBase,
  testCase,
  writable,
} from "../../testing/render-records";
import { InterpretationActions } from "./interpretation-actions";
import { interpretationView } from "./interpretation-view";

const caseItem = testCase({ stage: "preview" });
const riley: Author = { sub: "3a1b2c3d-4e5f-4a6b-8c7d-000000000012", username: "reviewer", name: "Dr. Riley Reviewer" };
const draftId = "5d1e2f3a-0000-4000-8000-000000000401";
const finalId = "5d1e2f3a-0000-4000-8000-000000000402";

function interpretation(overrides: Partial<InterpretationItem> = {}): InterpretationItem {
  return {
    ...itemFields(draftId, 1, riley),
    kind: "interpretation",
    data: {
      reportType: "daily",
      periodFrom: "2026-11-21T14:00:00.000Z",
      periodTo: "2026-11-22T14:00:00.000Z",
      history: "Cardiac arrest, day 2.",
      technicalDescription: "",
      background: {
        continuity: "discontinuous",
        symmetry: null,
        predominantFrequency: null,
        pdrHz: null,
        voltage: "low",
        reactivity: null,
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
          evolution: "static",
          stimulusInduced: false,
          notes: "",
        },
      ],
      seizures: { classification: "none", count: null, description: "" },
      impression: "Abnormal.",
      impressionCode: null,
      clinicalCorrelation: "",
    },
    status: "draft",
    signedBy: null,
    signedAt: null,
    addenda: [],
    ...overrides,
  };
}

const signed = () =>
  interpretation({
    ...itemFields(finalId, 2, riley),
    status: "final",
    signedBy: riley,
    signedAt: "2026-11-22T15:30:00.000Z",
  });

function list(items: InterpretationItem[], summary: Partial<InterpretationList["summary"]> = {}): InterpretationList {
  return {
    caseId,
    stage: "preview",
    write: writable,
    items,
    total: items.length,
    limit: 50,
    offset: 0,
    summary: { signed: false, canSign: true, ...summary },
  };
}

const revisions = (itemId: string) => `POST ${recordApi("interpretations")}/${itemId}/revisions`;

describe("signing interpretations", () => {
  it("offers no signing to someone who may not sign", async () => {
    const item = interpretation();
    renderRecords(
      <>
        <InterpretationActions item={item} caseItem={caseItem} list={list([item], { canSign: false })} />
        <p>rendered</p>
      </>,
    );
    await screen.findByText("rendered");
    expect(screen.queryByRole("button", { name: "Sign as final" })).toBeNull();
  });

  it("offers no signing when the stage does not allow writing", async () => {
    const item = interpretation();
    const closed = { ...list([item]), write: { allowed: false, reason: "closed", reasonRequired: false } };
    renderRecords(
      <>
        <InterpretationActions item={item} caseItem={caseItem} list={closed} />
        <p>rendered</p>
      </>,
    );
    await screen.findByText("rendered");
    expect(screen.queryByRole("button", { name: "Sign as final" })).toBeNull();
    expect(screen.queryByRole("button", { name: "Add addendum" })).toBeNull();
  });

  it("asks before signing, says the text locks, and signs on the revision read", async () => {
    const user = userEvent.setup();
    const item = interpretation();
    const sent: Record<string, unknown>[] = [];
    renderRecords(<InterpretationActions item={item} caseItem={caseItem} list={list([item])} />, {
      groups: ["reviewer"],
      routes: {
        [revisions(draftId)]: async (request) => {
          sent.push(await jsonBody(request));
          return envelope(
            { ...item, revision: 2, status: "final", signedBy: riley, signedAt: "2026-11-22T15:30:00.000Z" },
            { status: 201 },
          );
        },
      },
    });
    expect(screen.queryByRole("button", { name: "Add addendum" })).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Sign as final" }));
    const dialog = await screen.findByRole("dialog", { name: "Sign this interpretation as final?" });
    expect(dialog.textContent).toContain("locks its text");
    await user.click(within(dialog).getByRole("combobox", { name: "Coded impression (optional)" }));
    await user.click(await screen.findByRole("option", { name: "Abnormal EEG" }));
    await user.click(within(dialog).getByRole("button", { name: "Sign as final" }));
    await waitFor(() => expect(sent).toEqual([{ change: "sign", baseRevision: 1, impressionCode: "abnormal" }]));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("shows their version when the draft changed before signing, and signs it only when asked", async () => {
    const user = userEvent.setup();
    const item = interpretation();
    const theirs = { ...interpretation(), revision: 2, data: { ...item.data, impression: "Abnormal, improving." } };
    const sent: Record<string, unknown>[] = [];
    renderRecords(<InterpretationActions item={item} caseItem={caseItem} list={list([item])} />, {
      groups: ["reviewer"],
      routes: {
        [revisions(draftId)]: async (request) => {
          const body = await jsonBody(request);
          sent.push(body);
          return body.baseRevision === 1
            ? staleBase(theirs)
            : envelope({
                ...theirs,
                revision: 3,
                status: "final",
                signedBy: riley,
                signedAt: "2026-11-22T15:30:00.000Z",
              });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Sign as final" }));
    await user.click(within(await screen.findByRole("dialog")).getByRole("button", { name: "Sign as final" }));
    const conflict = await screen.findByRole("dialog", { name: "The interpretation changed before you signed" });
    expect(within(conflict).getByText("Abnormal, improving.")).toBeTruthy();
    await user.click(within(conflict).getByRole("button", { name: "Sign their version" }));
    await waitFor(() => expect(sent.map((body) => body.baseRevision)).toEqual([1, 2]));
    expect(sent[1]).toEqual({ change: "sign", baseRevision: 2, impressionCode: null });
  });

  it("adds an addendum to a signed interpretation", async () => {
    const user = userEvent.setup();
    const item = signed();
    const sent: Record<string, unknown>[] = [];
    renderRecords(<InterpretationActions item={item} caseItem={caseItem} list={list([item], { signed: true })} />, {
      groups: ["reviewer"],
      routes: {
        [revisions(finalId)]: async (request) => {
          sent.push(await jsonBody(request));
          return envelope(
            {
              ...item,
              revision: 3,
              addenda: [
                { revision: 3, text: "Seizure at 16:05.", author: riley, createdAt: "2026-11-22T16:10:00.000Z" },
              ],
            },
            { status: 201 },
          );
        },
      },
    });
    expect(screen.queryByRole("button", { name: "Sign as final" })).toBeNull();
    await user.click(await screen.findByRole("button", { name: "Add addendum" }));
    const dialog = await screen.findByRole("dialog", { name: "Add an addendum" });
    await user.click(within(dialog).getByRole("button", { name: "Add addendum" }));
    expect(within(dialog).getByText("Addendum is required")).toBeTruthy();
    expect(sent).toHaveLength(0);
    await user.click(within(dialog).getByLabelText(/^Addendum/));
    await user.paste("Seizure at 16:05.");
    await user.click(within(dialog).getByRole("button", { name: "Add addendum" }));
    await waitFor(() => expect(sent).toEqual([{ change: "addendum", text: "Seizure at 16:05.", baseRevision: 2 }]));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
  });

  it("asks before a stray Escape throws a typed addendum away, and keeps it when told to", async () => {
    const user = userEvent.setup();
    const item = signed();
    renderRecords(<InterpretationActions item={item} caseItem={caseItem} list={list([item], { signed: true })} />, {
      groups: ["reviewer"],
    });
    await user.click(await screen.findByRole("button", { name: "Add addendum" }));
    const dialog = await screen.findByRole("dialog", { name: "Add an addendum" });
    await user.click(within(dialog).getByLabelText(/^Addendum/));
    await user.paste("Seizure at 16:05.");
    await user.keyboard("{Escape}");
    const question = await screen.findByRole("dialog", { name: "Discard your changes?" });
    await user.click(within(question).getByRole("button", { name: "Keep editing" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Discard your changes?" })).toBeNull());
    expect((within(dialog).getByLabelText(/^Addendum/) as HTMLTextAreaElement).value).toBe("Seizure at 16:05.");

    await user.keyboard("{Escape}");
    await user.click(
      within(await screen.findByRole("dialog", { name: "Discard your changes?" })).getByRole("button", {
        name: "Discard changes",
      }),
    );
    await waitFor(() => expect(screen.queryAllByRole("dialog")).toEqual([]));
    await user.click(screen.getByRole("button", { name: "Add addendum" }));
    const reopened = await screen.findByRole("dialog", { name: "Add an addendum" });
    expect((within(reopened).getByLabelText(/^Addendum/) as HTMLTextAreaElement).value).toBe("");
  });
});

describe("interpretations tab", () => {
  it("lets a draft be edited but never a signed interpretation, whose addenda show under its text", async () => {
    const draft = interpretation();
    const final = {
      ...signed(),
      revision: 3,
      addenda: [
        {
          revision: 3,
          text: "Seizure at 11:05 reviewed.",
          author: riley,
          createdAt: "2026-11-22T16:10:00.000Z",
        },
      ],
    };
    expect(interpretationView.editable?.(draft)).toBe(true);
    expect(interpretationView.editable?.(final)).toBe(false);

    renderRecords(<RecordTab view={interpretationView} caseItem={caseItem} />, {
      groups: ["reviewer"],
      routes: {
        [`GET ${recordApi("interpretations")}`]: () =>
          listOf([final, draft], { summary: { signed: true, canSign: true }, stage: "preview" }),
      },
    });
    const items = within(await screen.findByRole("list", { name: "Interpretations" })).getAllByRole("listitem");
    const finalItem = items.find((element) => element.textContent?.includes("Signed by")) as HTMLElement;
    const draftItem = items.find((element) => element.textContent?.includes("Draft")) as HTMLElement;
    expect(within(finalItem).getByText("Final")).toBeTruthy();
    expect(finalItem.textContent).toContain("Signed by Dr. Riley Reviewer on Nov 22, 2026, 10:30 EST");
    expect(within(finalItem).getByText("Seizure at 11:05 reviewed.")).toBeTruthy();
    expect(within(finalItem).queryByRole("button", { name: "Edit" })).toBeNull();
    expect(within(finalItem).queryByRole("button", { name: "Delete" })).toBeNull();
    expect(within(finalItem).queryByRole("button", { name: "Sign as final" })).toBeNull();
    expect(within(finalItem).getByRole("button", { name: "Add addendum" })).toBeTruthy();

    expect(within(draftItem).getByRole("button", { name: "Edit" })).toBeTruthy();
    expect(within(draftItem).getByRole("button", { name: "Sign as final" })).toBeTruthy();
    expect(within(draftItem).queryByRole("button", { name: "Add addendum" })).toBeNull();
    expect(draftItem.textContent).toContain("LPD+F: Lateralized (L) Periodic discharges (PD)");
    expect(screen.getByText(/A final interpretation is signed/)).toBeTruthy();
  });
});
