import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { pages } from "@vigil/contract";
import { afterEach, describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import {
  caseId,
  casey,
  clientId,
  contact,
  delivery,
  nia,
  omar,
  pat,
  renderCaseReports,
  reportList,
  reportsPath,
  version,
} from "../testing/report-fixtures";

const contactsPath = `/api/continuous-monitoring/clients/${clientId}/contacts`;
const contacts = [
  contact(nia, "Dr. Nia Neuro", "nia@pni.example"),
  contact(omar, "Dr. Omar Osei", "omar@pni.example"),
  contact(pat, "Pat Porter", null),
];

/** Saved files, caught where the page hands its Blob to the browser. */
function catchSavedFiles() {
  const saved: { name: string; blob: Blob }[] = [];
  let pending: Blob | undefined;
  vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
    pending = blob as Blob;
    return "blob:file";
  });
  vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (this: HTMLAnchorElement) {
    if (pending) saved.push({ name: this.download, blob: pending });
  });
  return saved;
}

describe("a case's reports", () => {
  afterEach(() => vi.restoreAllMocks());

  it("lists every version newest first, with to whom each went, when, and when its link was used", async () => {
    const addendum = version({
      id: "7b1b2c3d-0000-4000-8000-000000000002",
      version: 2,
      kind: "addendum",
      fhirStatus: "amended",
      issuedAt: "2026-11-23T09:00:00.000Z",
      addendum: { text: "Clinical correlation added.", author: casey, createdAt: "2026-11-23T09:00:00.000Z" },
      deliveries: [
        delivery({ id: "6a1b2c3d-0000-4000-8000-000000000002", status: "pending", sentAt: null }),
        delivery({
          id: "6a1b2c3d-0000-4000-8000-000000000003",
          contactId: omar,
          recipientName: "Dr. Omar Osei",
          destination: "o***@pni.example",
          status: "failed",
          lastError: "550 mailbox unavailable",
          sentAt: null,
        }),
      ],
    });
    const signed = version({ deliveries: [delivery({ openedAt: "2026-11-22T18:05:00.000Z", sentBy: casey })] });
    renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList({ items: [addendum, signed] })) });

    const sections = await screen.findAllByRole("region", { name: /^EEG report — daily/ });
    expect(sections.map((section) => within(section).getByRole("heading").textContent)).toEqual([
      "EEG report — daily, 2026-11-21 to 2026-11-22, version 2 (with an addendum)",
      "EEG report — daily, 2026-11-21 to 2026-11-22, version 1 (the signed report)",
    ]);
    const [newest, first] = sections as [HTMLElement, HTMLElement];
    expect(newest.textContent).toContain(
      "Signed by Dr. Riley Reviewer on Nov 22, 2026, 07:30 PST (America/Los_Angeles)",
    );
    expect(newest.textContent).toContain("Clinical correlation added.");
    const newestRows = within(within(newest).getByRole("table", { name: "Deliveries of version 2" })).getAllByRole(
      "row",
    );
    expect(newestRows.map((row) => row.getAttribute("data-status"))).toEqual([null, "pending", "failed"]);
    expect(newestRows[1]?.textContent).toContain("Sending");
    expect(newestRows[2]?.textContent).toContain("Not sent");
    expect(newestRows[2]?.textContent).toContain("550 mailbox unavailable");
    expect(newestRows[2]?.textContent).toContain("o***@pni.example");

    const firstRow = within(within(first).getByRole("table", { name: "Deliveries of version 1" })).getAllByRole(
      "row",
    )[1];
    expect(firstRow?.textContent).toContain("Nov 22, 2026, 10:05 PST (America/Los_Angeles)");
    expect(firstRow?.textContent).toContain("Casey Coordinator");
    expect(
      screen.getByText(/e-mailed as a one-time download link to Dr\. Nia Neuro \(n\*\*\*@pni\.example\)/),
    ).toBeTruthy();
  });

  it("downloads a version's PDF and FHIR with the user's token, only when asked", async () => {
    const user = userEvent.setup();
    const saved = catchSavedFiles();
    const reportId = version().id;
    const { calls } = renderCaseReports({
      [`GET ${reportsPath}`]: () => envelope(reportList()),
      [`GET ${reportsPath}/${reportId}/pdf`]: () =>
        new Response("%PDF-1.7 report", { headers: { "content-type": "application/pdf" } }),
      [`GET ${reportsPath}/${reportId}/fhir`]: () =>
        new Response('{"resourceType":"DiagnosticReport"}', { headers: { "content-type": "application/fhir+json" } }),
    });
    await user.click(await screen.findByRole("button", { name: "Download PDF of version 1" }));
    await waitFor(() => expect(saved).toHaveLength(1));
    await user.click(screen.getByRole("button", { name: "Download FHIR of version 1" }));
    await waitFor(() => expect(saved).toHaveLength(2));

    expect(saved.map((file) => file.name)).toEqual([
      "EEG-report-CM-2026-000123-v1.pdf",
      "EEG-report-CM-2026-000123-v1.fhir.json",
    ]);
    expect(await saved[0]?.blob.text()).toBe("%PDF-1.7 report");
    const fileCalls = calls.filter((call) => call.path.includes(reportId));
    expect(fileCalls.map((call) => call.path)).toEqual([
      `${reportsPath}/${reportId}/pdf`,
      `${reportsPath}/${reportId}/fhir`,
    ]);
    expect(fileCalls.every((call) => call.authorization?.startsWith("Bearer "))).toBe(true);
  });

  it("links each version to its printable page, which it does not read until opened", async () => {
    const { calls } = renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList()) });
    const link = await screen.findByRole("link", { name: "Printable page of version 1" });
    expect(link.getAttribute("href")).toBe(
      `${pages["case-report-print"].href({ caseId, reportId: version().id })}?stage=reviewed`,
    );
    expect(calls.some((call) => call.path.endsWith("/document"))).toBe(false);
  });

  it("sends a version again to the contacts picked, the protocol's recipients picked to begin with", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    const resent = version({
      deliveries: [
        delivery({ id: "6a1b2c3d-0000-4000-8000-000000000009", status: "pending", sentAt: null, sentBy: casey }),
        delivery(),
      ],
    });
    let list = reportList();
    renderCaseReports({
      [`GET ${reportsPath}`]: () => envelope(list),
      [`GET ${contactsPath}`]: () => envelope(contacts),
      [`POST ${reportsPath}/${version().id}/deliveries`]: async ({ text }) => {
        bodies.push(JSON.parse(await text()));
        list = reportList({ items: [resent] });
        return envelope(resent, { status: 201 });
      },
    });

    await user.click(await screen.findByRole("button", { name: "Send again: version 1" }));
    const dialog = await screen.findByRole("dialog", { name: "Send version 1 again" });
    const niaBox = await within(dialog).findByRole("checkbox", { name: /Dr\. Nia Neuro/ });
    expect((niaBox as HTMLInputElement).checked).toBe(true);
    expect(
      within(dialog)
        .getByRole("checkbox", { name: /Pat Porter/ })
        .closest("label")?.textContent,
    ).toContain("No e-mail address: no link can reach them");
    await user.click(within(dialog).getByRole("checkbox", { name: /Dr\. Omar Osei/ }));
    await user.click(within(dialog).getByRole("button", { name: "Send" }));

    expect(
      await screen.findByText("A new link to version 1 is on its way to Dr. Nia Neuro, Dr. Omar Osei."),
    ).toBeTruthy();
    expect(bodies).toEqual([{ contactIds: [nia, omar] }]);
    expect(screen.queryByRole("dialog")).toBeNull();
    const rows = within(screen.getByRole("table", { name: "Deliveries of version 1" })).getAllByRole("row");
    expect(rows).toHaveLength(3);
    expect(rows[1]?.textContent).toContain("Casey Coordinator");
  });

  it("voids an unused link only after asking, then shows it withdrawn with no second offer", async () => {
    const user = userEvent.setup();
    const posts: string[] = [];
    const withdrawn = version({
      deliveries: [delivery({ voidedAt: "2026-11-23T10:00:00.000Z", voidReason: "staff" })],
    });
    let list = reportList();
    const { calls } = renderCaseReports({
      [`GET ${reportsPath}`]: () => envelope(list),
      [`POST ${reportsPath}/${version().id}/deliveries/${delivery().id}/void`]: ({ url }) => {
        posts.push(url.pathname);
        list = reportList({ items: [withdrawn] });
        return envelope(withdrawn);
      },
    });

    const voidButton = await screen.findByRole("button", { name: "Void link: Dr. Nia Neuro, version 1" });
    await user.click(voidButton);
    let dialog = await screen.findByRole("dialog", { name: "Void this link?" });
    expect(dialog.textContent).toContain("e-mailed to Dr. Nia Neuro (n***@pni.example) will no longer download");
    expect(dialog.textContent).toContain("accounting of disclosures");
    await user.click(within(dialog).getByRole("button", { name: "Keep the link" }));
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(calls.some((call) => call.method === "POST")).toBe(false);

    await user.click(screen.getByRole("button", { name: "Void link: Dr. Nia Neuro, version 1" }));
    dialog = await screen.findByRole("dialog", { name: "Void this link?" });
    await user.click(within(dialog).getByRole("button", { name: "Void link" }));

    expect(
      await screen.findByText("The link to version 1 sent to Dr. Nia Neuro no longer downloads the report."),
    ).toBeTruthy();
    expect(posts).toHaveLength(1);
    const row = within(screen.getByRole("table", { name: "Deliveries of version 1" })).getAllByRole("row")[1];
    expect(row?.textContent).toContain("Withdrawn by staff");
    expect(row?.textContent).toContain("Nov 23, 2026, 02:00 PST (America/Los_Angeles)");
    expect(screen.queryByRole("button", { name: /^Void link/ })).toBeNull();
  });

  it("offers no Void link for a link already used", async () => {
    renderCaseReports({
      [`GET ${reportsPath}`]: () =>
        envelope(
          reportList({ items: [version({ deliveries: [delivery({ openedAt: "2026-11-22T18:05:00.000Z" })] })] }),
        ),
    });
    expect(await screen.findByRole("table", { name: "Deliveries of version 1" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /^Void link/ })).toBeNull();
  });

  it("asks for at least one contact before sending again, and sends nothing", async () => {
    const user = userEvent.setup();
    const { calls } = renderCaseReports({
      [`GET ${reportsPath}`]: () => envelope(reportList()),
      [`GET ${contactsPath}`]: () => envelope(contacts),
    });
    await user.click(await screen.findByRole("button", { name: "Send again: version 1" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(await within(dialog).findByRole("checkbox", { name: /Dr\. Nia Neuro/ }));
    await user.click(within(dialog).getByRole("button", { name: "Send" }));
    expect(await within(dialog).findByText("Pick at least one contact.")).toBeTruthy();
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });

  it("offers no sending again to those who may not (the server's canSend)", async () => {
    renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList({ canSend: false })) }, ["technologist"]);
    expect(await screen.findByRole("button", { name: "Download PDF of version 1" })).toBeTruthy();
    expect(screen.queryByRole("button", { name: /again/ })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Void link/ })).toBeNull();
  });

  it("says per version whether the hospital's EHR acknowledged it and when, or why it failed", async () => {
    const items = [
      version({
        id: "7b1b2c3d-0000-4000-8000-000000000003",
        version: 3,
        ehr: { status: "waiting", ackCode: null, at: null, error: null },
      }),
      version({
        id: "7b1b2c3d-0000-4000-8000-000000000002",
        version: 2,
        ehr: { status: "failed", ackCode: "AE", at: "2026-11-23T09:01:00.000Z", error: "Order ORD-1 not found" },
      }),
      version({ ehr: { status: "acknowledged", ackCode: "AA", at: "2026-11-22T15:31:00.000Z", error: null } }),
    ];
    renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList({ items })) });
    expect(await screen.findByText(/Sent to the EHR · acknowledged/)).toBeTruthy();
    expect(
      screen
        .getByText(/Sent to the EHR · acknowledged/)
        .querySelector("time")
        ?.getAttribute("datetime"),
    ).toBe("2026-11-22T15:31:00.000Z");
    expect(screen.getByText("Sent to the EHR · failed: Order ORD-1 not found")).toBeTruthy();
    expect(screen.getByText(/Sent to the EHR · waiting/)).toBeTruthy();
  });

  it("says nothing of the EHR for a client that takes no results by interface", async () => {
    renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList()) });
    expect(await screen.findByRole("button", { name: "Download PDF of version 1" })).toBeTruthy();
    expect(screen.queryByText(/Sent to the EHR/)).toBeNull();
  });

  it("says when there is no signed report yet and the protocol names nobody to send it to", async () => {
    renderCaseReports({ [`GET ${reportsPath}`]: () => envelope(reportList({ items: [], recipients: [] })) });
    expect(await screen.findByText(/No signed report yet\./)).toBeTruthy();
    expect(screen.getByText(/The client's protocol names no report recipient/)).toBeTruthy();
  });
});
