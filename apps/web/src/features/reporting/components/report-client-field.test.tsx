import { screen, within } from "@testing-library/react";
import type { ReactElement } from "react";
import { describe, expect, it } from "vitest";
import { envelope, errorEnvelope } from "../../../test/fake-server";
import { renderWithRoutes } from "../../../test/render-page-screens";
import { ReportClientField } from "./report-client-field";

const clientsApi = "GET /api/continuous-monitoring/clients/ids";
const mercy = { id: "5b6a7c8d-1111-4a2b-9c3d-000000000001", name: "Mercy General", code: "MGH" };
const archived = "5b6a7c8d-1111-4a2b-9c3d-0000000000ff";

function renderField(element: ReactElement, answer: () => Response) {
  return renderWithRoutes("/", [{ path: "/", element }], { groups: ["billing"], routes: { [clientsApi]: answer } });
}

const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole("option")
    .map((option) => option.textContent);

describe("a report's client picker", () => {
  it("keeps the client a link names when the list does not have it, and says it is not active", async () => {
    renderField(<ReportClientField value={archived} onChange={() => undefined} emptyLabel="All clients" />, () =>
      envelope([mercy]),
    );

    const select = screen.getByRole("combobox", { name: "Client" }) as HTMLSelectElement;
    await within(select).findByRole("option", { name: "Mercy General (MGH)" });
    expect(optionTexts(select)).toEqual(["All clients", "The client in the link (not active)", "Mercy General (MGH)"]);
    expect(select.value).toBe(archived);
  });

  it("says in red when the clients could not be loaded", async () => {
    renderField(<ReportClientField value="" onChange={() => undefined} emptyLabel="Choose a client" />, () =>
      errorEnvelope(503, "unavailable", "Try later."),
    );

    expect(await screen.findByText("The clients could not be loaded")).toBeTruthy();
    expect(screen.getByRole("combobox", { name: "Client" }).getAttribute("aria-invalid")).toBe("true");
  });

  it("shows the page's own message for the field instead, red only when the page says so", async () => {
    // Beside a picker left to say it, so the test knows the failed read has arrived.
    renderField(
      <>
        <ReportClientField value="" onChange={() => undefined} emptyLabel="Choose a client" />
        <ReportClientField
          value=""
          onChange={() => undefined}
          emptyLabel="All clients"
          error={false}
          helperText="Pick one to narrow the report"
        />
      </>,
      () => errorEnvelope(503, "unavailable", "Try later."),
    );

    expect(await screen.findByText("The clients could not be loaded")).toBeTruthy();
    const [, own] = screen.getAllByRole("combobox", { name: "Client" }) as HTMLElement[];
    expect(own?.getAttribute("aria-invalid")).toBe("false");
    expect(screen.getAllByText("The clients could not be loaded")).toHaveLength(1);
    expect(screen.getByText("Pick one to narrow the report")).toBeTruthy();
  });
});
