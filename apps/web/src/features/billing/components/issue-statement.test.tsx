import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { BillingStatement } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import {
  billingApi,
  clientId,
  renderBillingScreen,
  testIssuedStatement,
  testStatement,
  testStatementCase,
} from "../testing/render-billing-screen";

const statementPath = `/billing/continuous-monitoring/${clientId}/2026-11`;
const statementApi = `${billingApi}/${clientId}/2026-11`;

/** A case added after the statement was issued (a re-opened study's new time). */
const lateCase = testStatementCase({
  caseId: "9f1e2d3c-3333-4a2b-9c3d-000000000002",
  caseNumber: "CM-2026-000124",
  patientName: "Roe, Richard",
  hours: "1.50",
  amount: "180.00",
});

describe("issuing a monthly statement", () => {
  it("asks first, then issues the figures on the screen, naming them in If-Match, and prints the issued one", async () => {
    const user = userEvent.setup();
    let current: BillingStatement = testStatement();
    const ifMatch: (string | null)[] = [];
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${statementApi}`]: () => envelope(current),
        [`POST ${statementApi}/statement`]: ({ headers }) => {
          ifMatch.push(headers.get("if-match"));
          const issued = testIssuedStatement();
          current = testStatement({
            invoiced: true,
            issued,
            changesSinceIssue: { rateChangedTo: null, lines: [], hours: "0.00", amount: "0.00" },
            issueRefusal: "Statement No. 4 has been issued for this month.",
          });
          return envelope(issued, { status: 201 });
        },
      },
    });
    const document = await screen.findByRole("article", { name: /^Monthly statement/ });
    expect(within(document).getByText("Not issued yet")).toBeTruthy();
    expect(within(document).getByText("Not invoiced")).toBeTruthy();

    const issueButton = screen.getByRole("button", { name: "Issue statement" });
    expect(issueButton.closest(".vigil-no-print")).toBeTruthy();
    await user.click(issueButton);
    const dialog = await screen.findByRole("dialog", { name: "Issue the statement for November 2026?" });
    expect(dialog.textContent).toContain("St. Mary's Regional Medical Center is billed $3,150.00 for 1 case");
    // Nothing is sent before the user confirms.
    expect(ifMatch).toEqual([]);
    await user.click(within(dialog).getByRole("button", { name: "Issue statement" }));

    expect(await screen.findByText(/Statement No\. 4 was issued for November 2026/)).toBeTruthy();
    expect(ifMatch).toEqual(['"fingerprint-of-the-live-figures"']);
    const issued = await screen.findByRole("article", { name: /^Monthly statement/ });
    expect(await within(issued).findByText("No. 4")).toBeTruthy();
    expect(within(issued).getByText("Invoiced")).toBeTruthy();
    expect(within(issued).getByText("Dec 3, 2026, 09:00 EST (America/New_York)")).toBeTruthy();
    expect(within(issued).getByText(/by Bailey Biller/)).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Issue statement" })).toBeNull();
    const changes = screen.getByRole("region", { name: "Changes since statement No. 4" });
    expect(within(changes).getByText("Nothing has changed since the statement was issued.")).toBeTruthy();
  });

  it("shows why a month cannot be issued yet, beside the disabled button", async () => {
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${statementApi}`]: () =>
          envelope(
            testStatement({
              provisional: true,
              issueRefusal: "A time log in this month is still running: stop it first.",
            }),
          ),
      },
    });
    const button = await screen.findByRole("button", { name: "Issue statement" });
    expect((button as HTMLButtonElement).disabled).toBe(true);
    expect(button.getAttribute("aria-describedby")).toBeTruthy();
    const reason = document.getElementById(button.getAttribute("aria-describedby") as string);
    expect(reason?.textContent).toBe("A time log in this month is still running: stop it first.");
  });

  it("says when the figures moved before the statement was issued, and reads it again", async () => {
    const user = userEvent.setup();
    let reads = 0;
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${statementApi}`]: () => {
          reads++;
          return envelope(testStatement());
        },
        [`POST ${statementApi}/statement`]: () =>
          errorEnvelope(
            412,
            "precondition_failed",
            "The statement for 2026-11 changed since you looked at it (hours, amounts, the rate or the cases). Review it and issue it again.",
          ),
      },
    });
    await user.click(await screen.findByRole("button", { name: "Issue statement" }));
    const dialog = await screen.findByRole("dialog");
    await user.click(within(dialog).getByRole("button", { name: "Issue statement" }));
    const alert = await screen.findByText("The statement was not issued");
    expect(alert.closest(".MuiAlert-root")?.textContent).toContain("changed since you looked at it");
    // The question is closed (after its exit transition): the figures behind it have moved.
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    await screen.findByRole("button", { name: "Issue statement" });
    expect(reads).toBeGreaterThanOrEqual(2);
  });

  it("prints the statement as issued and shows, on screen only, what to bill or credit next time", async () => {
    const issued = testIssuedStatement();
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${statementApi}`]: () =>
          envelope(
            testStatement({
              // Live: a rate change and a case added since; the document must still show what was issued.
              rate: { hourlyRate: "130.00", fromMonth: "2026-11", inherited: false },
              cases: [testStatementCase({ amount: "3412.50" }), lateCase],
              totals: { hours: "27.75", amount: "3592.50", caseCount: 2 },
              invoiced: true,
              issued,
              changesSinceIssue: {
                rateChangedTo: { hourlyRate: "130.00", fromMonth: "2026-11", inherited: false },
                lines: [
                  {
                    caseId: issued.lines[0]?.caseId as string,
                    caseNumber: "CM-2026-000123",
                    patientName: "Doe, Jane",
                    change: "changed",
                    issuedHours: "26.25",
                    currentHours: "26.25",
                    issuedAmount: "3150.00",
                    currentAmount: "3412.50",
                    hours: "0.00",
                    amount: "262.50",
                  },
                  {
                    caseId: lateCase.caseId,
                    caseNumber: "CM-2026-000124",
                    patientName: "Roe, Richard",
                    change: "added",
                    issuedHours: null,
                    currentHours: "1.50",
                    issuedAmount: null,
                    currentAmount: "180.00",
                    hours: "1.50",
                    amount: "180.00",
                  },
                ],
                hours: "1.50",
                amount: "442.50",
              },
              issueRefusal: "Statement No. 4 has been issued for this month.",
            }),
          ),
      },
    });
    const document = await screen.findByRole("article", { name: /^Monthly statement/ });
    const table = within(document).getByRole("table", { name: "Cases billed in November 2026" });
    expect(within(table).queryByText("CM-2026-000124")).toBeNull();
    expect(within(table).getByText("$3,150.00")).toBeTruthy();
    expect(within(document).getByText("$120.00 per hour (inherited from October 2026)")).toBeTruthy();
    const totals = within(document).getByRole("region", { name: "Totals" });
    expect(within(totals).getByText("$3,150.00")).toBeTruthy();

    const changes = screen.getByRole("region", { name: "Changes since statement No. 4" });
    expect(changes.closest(".vigil-no-print")).toBeTruthy();
    expect(document.contains(changes)).toBe(false);
    expect(
      within(changes).getByText(/The rate is now \$130\.00 per hour; the statement was issued at \$120\.00/),
    ).toBeTruthy();
    const added = within(changes).getByText("CM-2026-000124").closest("tr") as HTMLElement;
    expect(within(added).getByText("Added since issue")).toBeTruthy();
    expect(within(added).getByText("+$180.00")).toBeTruthy();
    const changed = within(changes).getByText("CM-2026-000123").closest("tr") as HTMLElement;
    expect(within(changed).getByText("+$262.50")).toBeTruthy();
    expect(within(changes).getByText("+1.50")).toBeTruthy();
    expect(within(changes).getByText("To bill on a supplementary invoice: $442.50.")).toBeTruthy();
  });

  it("names a credit when the month now comes to less than was issued", async () => {
    const issued = testIssuedStatement();
    renderBillingScreen(statementPath, {
      routes: {
        [`GET ${statementApi}`]: () =>
          envelope(
            testStatement({
              cases: [],
              totals: { hours: "0.00", amount: "0.00", caseCount: 0 },
              invoiced: true,
              issued,
              changesSinceIssue: {
                rateChangedTo: null,
                lines: [
                  {
                    caseId: issued.lines[0]?.caseId as string,
                    caseNumber: "CM-2026-000123",
                    patientName: "Doe, Jane",
                    change: "removed",
                    issuedHours: "26.25",
                    currentHours: null,
                    issuedAmount: "3150.00",
                    currentAmount: null,
                    hours: "-26.25",
                    amount: "-3150.00",
                  },
                ],
                hours: "-26.25",
                amount: "-3150.00",
              },
              issueRefusal: "Statement No. 4 has been issued for this month.",
            }),
          ),
      },
    });
    const changes = await screen.findByRole("region", { name: "Changes since statement No. 4" });
    const removed = within(changes).getByText("CM-2026-000123").closest("tr") as HTMLElement;
    expect(within(removed).getByText("No longer billable")).toBeTruthy();
    expect(within(changes).getByText("To credit on a credit note: $3,150.00.")).toBeTruthy();
  });
});
