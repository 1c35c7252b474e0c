import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import { protocolFormValues, rebaseProtocolDraft } from "../protocol-model";
import { clientId, renderClientScreen, testClient, testContact, testRevision } from "../testing/render-client-screen";

const protocolPath = `/continuous-monitoring/clients/${clientId}/protocol`;
const api = `/api/continuous-monitoring/clients/${clientId}`;

const first = testRevision(1);
const second = testRevision(2, {
  impedanceThresholdKohm: 5,
  transferForm: {
    title: "Transfer into continuous EEG monitoring",
    instructions: "Fax to the monitoring unit.",
    fields: [
      { key: "patientName", label: "Patient name", type: "text", required: true },
      { key: "indication", label: "Indication", type: "textarea", required: true },
    ],
  },
});
const protocol = { clientId, current: second, history: [second, first] };

const jordan = testContact();
const nia = testContact({
  _id: "5c3e8f1a-1111-4a2b-9c3d-000000000002",
  name: "Dr. Nia Neuro",
  role: "Neurologist",
  email: "nia@smrmc.example",
});
const sam = testContact({
  _id: "5c3e8f1a-1111-4a2b-9c3d-000000000003",
  name: "Sam Porter",
  role: "Porter",
  email: null,
});
const removedContactId = "5c3e8f1a-1111-4a2b-9c3d-0000000000ff";
const contactsRoute = { [`GET ${api}/contacts`]: () => envelope([jordan, nia, sam]) };

function rowOf(table: HTMLElement, name: RegExp): HTMLElement {
  return within(table).getByRole("rowheader", { name }).closest("tr") as HTMLElement;
}

// The editor tests type into the whole protocol form (some 20 fields and the contacts): on a loaded 2-core machine
// one takes half a minute.
describe("client protocol", () => {
  it("shows the current revision and a side-by-side diff of two picked revisions", async () => {
    const user = userEvent.setup();
    const { location } = renderClientScreen(protocolPath, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
      },
    });
    expect(await screen.findByRole("heading", { name: "Current protocol: revision 2" })).toBeTruthy();
    expect(screen.getByText("5 kΩ")).toBeTruthy();

    await user.click(screen.getByRole("checkbox", { name: "Pick revision 1 to compare" }));
    await user.click(screen.getByRole("checkbox", { name: "Pick revision 2 to compare" }));
    await user.click(screen.getByRole("button", { name: "Compare selected" }));
    await waitFor(() => expect(location()).toBe(`${protocolPath}?view=compare&from=1&to=2`));

    const diff = screen.getByRole("table", { name: "Revision 1 compared with revision 2" });
    expect(within(diff).getByText(/^Revision 1 \(Nov 21, 2026, 09:14 EST \(America\/New_York\)\)$/)).toBeTruthy();
    const threshold = rowOf(diff, /Impedance threshold/);
    expect(within(threshold).getByText("10")).toBeTruthy();
    expect(within(threshold).getByText("5")).toBeTruthy();
    expect(within(threshold).getByText("Changed")).toBeTruthy();
    expect(within(rowOf(diff, /Transfer form field “Room”/)).getAllByText("(empty)")).toHaveLength(1);
    expect(within(rowOf(diff, /Transfer form field “Indication”/)).getByText(/Long text, required/)).toBeTruthy();
    // Only changed settings show until asked otherwise.
    expect(within(diff).queryByRole("rowheader", { name: /Monitoring instructions/ })).toBeNull();
    expect(screen.getByText("4 fields differ.")).toBeTruthy();

    await user.click(screen.getByRole("switch", { name: "Only changed fields" }));
    expect(within(diff).getByRole("rowheader", { name: /Monitoring instructions/ })).toBeTruthy();
  });

  it("sends a new revision based on the current one and, on 409, rebases the edits onto theirs", async () => {
    const user = userEvent.setup();
    const third = testRevision(3, {
      ...second,
      criticalNotification: { notify: "On-call neurologist", withinMinutes: 15 },
      reviewTurnaroundHours: 12,
    });
    const posted: Record<string, unknown>[] = [];
    renderClientScreen(`${protocolPath}?view=new`, {
      routes: {
        ...contactsRoute,
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
        [`POST ${api}/protocol/revisions`]: async ({ text }) => {
          const body = JSON.parse(await text()) as Record<string, unknown>;
          posted.push(body);
          if (posted.length === 1) {
            return Response.json(
              {
                enoch: "release-1",
                error: { status: 409, code: "conflict", message: "Revision 3 is newer", details: { current: third } },
              },
              { status: 409 },
            );
          }
          return envelope({ ...third, revision: 4 }, { status: 201 });
        },
      },
    });
    const turnaround = (await screen.findByLabelText(/^Review turnaround/)) as HTMLInputElement;
    expect(turnaround.value).toBe("24");
    expect((screen.getByLabelText(/^Impedance threshold/) as HTMLInputElement).value).toBe("5");
    await user.clear(turnaround);
    expect(turnaround.getAttribute("aria-invalid")).toBe("true");
    await user.type(turnaround, "8");
    const notify = screen.getByLabelText(/^Who to notify/);
    await user.clear(notify);
    await user.click(notify);
    await user.paste("Attending, then charge nurse");
    await user.click(screen.getByRole("button", { name: "Add field" }));
    await user.click(screen.getByLabelText(/^Field 3 label/));
    await user.paste("Allergies");
    await user.click(screen.getByRole("button", { name: "Save revision" }));

    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Someone revised this protocol first")).toBeTruthy();
    expect(posted[0]).toMatchObject({
      baseRevision: 2,
      reviewTurnaroundHours: 8,
      impedanceThresholdKohm: 5,
      criticalNotification: { notify: "Attending, then charge nurse", withinMinutes: 30 },
    });
    expect((posted[0]?.transferForm as { fields: unknown[] }).fields).toHaveLength(3);
    expect((screen.getByLabelText(/^Review turnaround/) as HTMLInputElement).value).toBe("8");

    await user.click(within(alert).getByRole("button", { name: "Rebase my edits onto revision 3" }));
    const summary = screen.getByText("Your edits now build on revision 3").closest('[role="status"]') as HTMLElement;
    expect(summary.textContent).toMatch(/Your edits now build on revision 3/);
    expect(summary.textContent).toMatch(/Critical findings: notify within \(minutes\)/);
    expect(summary.textContent).toMatch(/Review turnaround \(hours\): theirs was “12”/);
    expect((screen.getByLabelText(/^Notify within/) as HTMLInputElement).value).toBe("15");
    expect((screen.getByLabelText(/^Review turnaround/) as HTMLInputElement).value).toBe("8");
    expect((screen.getByLabelText(/^Field 3 label/) as HTMLInputElement).value).toBe("Allergies");

    await user.click(screen.getByRole("button", { name: "Save revision" }));
    await waitFor(() => expect(posted).toHaveLength(2));
    expect(posted[1]).toMatchObject({
      baseRevision: 3,
      reviewTurnaroundHours: 8,
      criticalNotification: { notify: "Attending, then charge nurse", withinMinutes: 15 },
    });
  });

  it("shows and edits how fast a STAT case must be taken, with the contract's limits as messages", async () => {
    const user = userEvent.setup();
    const posted: Record<string, unknown>[] = [];
    renderClientScreen(`${protocolPath}?view=new`, {
      routes: {
        ...contactsRoute,
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
        [`POST ${api}/protocol/revisions`]: async ({ text }) => {
          posted.push(JSON.parse(await text()) as Record<string, unknown>);
          return envelope({ ...second, revision: 3, statAcknowledgeMinutes: 30 }, { status: 201 });
        },
      },
    });
    const stat = (await screen.findByLabelText(/^STAT cases taken by a reviewer within/)) as HTMLInputElement;
    expect(stat.value).toBe("60");
    await user.clear(stat);
    await user.type(stat, "4");
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    expect(stat.getAttribute("aria-invalid")).toBe("true");
    expect(await screen.findByText(/must be at least 5 minutes/)).toBeTruthy();
    expect(posted).toHaveLength(0);

    await user.clear(stat);
    await user.type(stat, "30");
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ baseRevision: 2, statAcknowledgeMinutes: 30 });
  });

  it("shows the STAT acknowledgement window of the current revision", async () => {
    renderClientScreen(protocolPath, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
      },
    });
    await screen.findByRole("heading", { name: "Current protocol: revision 2" });
    const setting = screen.getByText("STAT cases taken by a reviewer within");
    expect(setting.nextElementSibling?.textContent).toBe("60 min");
  });

  it("opens a printable transfer form and prints it", async () => {
    const user = userEvent.setup();
    const print = vi.fn();
    vi.stubGlobal("print", print);
    renderClientScreen(protocolPath, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
        [`GET ${api}/protocol/transfer`]: () =>
          envelope({
            ...second.transferForm,
            clientId,
            clientName: "St. Mary's Regional Medical Center",
            revision: 2,
            revisedAt: second.createdAt,
          }),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Printable transfer form" }));
    const form = await screen.findByRole("article", { name: "Printable transfer form" });
    expect(within(form).getByRole("heading", { name: "Transfer into continuous EEG monitoring" })).toBeTruthy();
    expect(within(form).getByText("Indication (required)")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Print" }));
    expect(print).toHaveBeenCalledTimes(1);
  });

  it("hides New revision from a user without clients:write", async () => {
    renderClientScreen(protocolPath, {
      groups: ["reviewer"],
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
      },
    });
    expect(await screen.findByRole("heading", { name: "Current protocol: revision 2" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: "New revision" })).toBeNull();
    expect(screen.getByRole("button", { name: "Compare revisions" })).toBeTruthy();
  });
});

describe("the protocol's report recipients", () => {
  const withRecipients = testRevision(2, { reportRecipients: { contactIds: [nia._id, removedContactId] } });

  it("shows whom signed reports are e-mailed to, by name and address, and a contact removed since", async () => {
    renderClientScreen(protocolPath, {
      routes: {
        ...contactsRoute,
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () =>
          envelope({ clientId, current: withRecipients, history: [withRecipients, first] }),
      },
    });
    await screen.findByRole("heading", { name: "Current protocol: revision 2" });
    const setting = screen.getByText("Report recipients");
    await waitFor(() =>
      expect(setting.nextElementSibling?.textContent).toBe("Dr. Nia Neuro (nia@smrmc.example)A removed contact"),
    );
  });

  it("says a protocol names nobody, without reading the contacts", async () => {
    const { calls } = renderClientScreen(protocolPath, {
      routes: {
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () => envelope(protocol),
      },
    });
    await screen.findByRole("heading", { name: "Current protocol: revision 2" });
    expect(screen.getByText("Report recipients").nextElementSibling?.textContent).toBe(
      "Nobody: signed reports are not e-mailed",
    );
    expect(calls.some((call) => call.path.endsWith("/contacts"))).toBe(false);
  });

  it("picks the recipients of a new revision among the client's contacts and sends their ids", async () => {
    const user = userEvent.setup();
    const posted: Record<string, unknown>[] = [];
    renderClientScreen(`${protocolPath}?view=new`, {
      routes: {
        ...contactsRoute,
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () =>
          envelope({ clientId, current: withRecipients, history: [withRecipients, first] }),
        [`POST ${api}/protocol/revisions`]: async ({ text }) => {
          posted.push(JSON.parse(await text()) as Record<string, unknown>);
          return envelope({ ...withRecipients, revision: 3 }, { status: 201 });
        },
      },
    });
    const group = await screen.findByRole("group", { name: "Report recipients" });
    expect((within(group).getByRole("checkbox", { name: /Dr\. Nia Neuro/ }) as HTMLInputElement).checked).toBe(true);
    expect(
      within(group)
        .getByRole("checkbox", { name: /Sam Porter/ })
        .closest("label")?.textContent,
    ).toContain("No e-mail address: no link can reach them");
    // The contact removed since is still there, picked, so it can be taken out.
    await user.click(within(group).getByRole("checkbox", { name: /A removed contact/ }));
    await user.click(within(group).getByRole("checkbox", { name: /Jordan Nurse/ }));
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toMatchObject({ baseRevision: 2, reportRecipients: { contactIds: [nia._id, jordan._id] } });
  });

  it("compares two revisions' recipients by name", async () => {
    renderClientScreen(`${protocolPath}?view=compare&from=1&to=2`, {
      routes: {
        ...contactsRoute,
        [`GET ${api}`]: () => envelope(testClient()),
        [`GET ${api}/protocol`]: () =>
          envelope({ clientId, current: withRecipients, history: [withRecipients, first] }),
      },
    });
    const diff = await screen.findByRole("table", { name: "Revision 1 compared with revision 2" });
    await waitFor(() => expect(rowOf(diff, /Report recipients/).textContent).toContain("Dr. Nia Neuro"));
    expect(rowOf(diff, /Report recipients/).textContent).toContain("A removed contact");
  });
});

describe("protocol rebase", () => {
  it("takes what only they changed, keeps what only the user changed, and lists settings both changed", () => {
    const base = protocolFormValues(first, 1);
    const theirs = protocolFormValues(testRevision(2, { impedanceThresholdKohm: 5, instructions: "Theirs" }), 2);
    const mine = { ...base, reviewTurnaroundHours: "12", instructions: "Mine", changeNote: "why" };
    const result = rebaseProtocolDraft(base, mine, theirs, 2);
    expect(result.values).toMatchObject({
      baseRevision: 2,
      impedanceThresholdKohm: "5",
      reviewTurnaroundHours: "12",
      instructions: "Mine",
      changeNote: "why",
    });
    expect(result.taken).toEqual(["Impedance threshold (kΩ)"]);
    expect(result.conflicts).toEqual([
      { path: "instructions", label: "Monitoring instructions", theirs: "Theirs", mine: "Mine" },
    ]);
  });
});
