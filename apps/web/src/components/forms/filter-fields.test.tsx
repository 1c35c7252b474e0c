import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type ReactElement, useState } from "react";
import { describe, expect, it } from "vitest";
import { envelope } from "../../test/fake-server";
import { renderWithRoutes } from "../../test/render-page-screens";
import { ClientFilterField, ReviewerFilterField, TechnologistFilterField } from "./filter-fields";

const clientsApi = "GET /api/continuous-monitoring/clients/ids";
const mercy = { id: "5b6a7c8d-1111-4a2b-9c3d-000000000001", name: "Mercy General", code: "MGH" };
const stJude = { id: "5b6a7c8d-1111-4a2b-9c3d-000000000002", name: "St. Jude", code: "SJ" };

function people(items: { id: string; username: string; name: string }[]) {
  return () => envelope({ items, total: items.length, limit: 200, offset: 0 });
}

const routes = {
  [clientsApi]: () => envelope([mercy, stJude]),
  "GET /api/users/continuous-monitoring/technologists": people([
    { id: "1f000000-0000-4000-8000-000000000001", username: "tina", name: "Tina Tech" },
    { id: "1f000000-0000-4000-8000-000000000003", username: "tom", name: "" },
  ]),
  "GET /api/users/continuous-monitoring/reviewers": people([
    { id: "1f000000-0000-4000-8000-000000000002", username: "rex", name: "Rex Reviewer" },
  ]),
};

/** The filter as a page holds it: the chosen id, shown below it so a test can read what the page would get. */
function Page({ field }: { field: (value: string, onChange: (value: string) => void) => ReactElement }) {
  const [value, setValue] = useState("");
  return (
    <>
      {field(value, setValue)}
      <output aria-label="Chosen">{value || "none"}</output>
    </>
  );
}

function renderFilter(field: Parameters<typeof Page>[0]["field"], groups = ["coordinator"]) {
  return renderWithRoutes("/", [{ path: "/", element: <Page field={field} /> }], { groups, routes });
}

const chosen = () => screen.getByRole("status", { name: "Chosen" }).textContent;

const optionTexts = (select: HTMLElement) =>
  within(select)
    .getAllByRole("option")
    .map((option) => option.textContent);

describe("the list filters that read their own choices", () => {
  it("offers every active client as name and code after 'All clients', and hands the page the chosen id", async () => {
    const user = userEvent.setup();
    renderFilter((value, onChange) => <ClientFilterField value={value} onChange={onChange} />);

    const select = screen.getByRole("combobox", { name: "Client" });
    await within(select).findByRole("option", { name: "St. Jude (SJ)" });
    expect(optionTexts(select)).toEqual(["All clients", "Mercy General (MGH)", "St. Jude (SJ)"]);

    await user.selectOptions(select, "St. Jude (SJ)");
    expect(chosen()).toBe(stJude.id);
    await user.selectOptions(select, "All clients");
    expect(chosen()).toBe("none");
  });

  it("does not ask for the clients when the user may not read them: only 'All clients' is offered", async () => {
    const { calls } = renderFilter(
      (value, onChange) => <ClientFilterField value={value} onChange={onChange} />,
      ["developer"],
    );

    const select = screen.getByRole("combobox", { name: "Client" });
    // Give a request that should not be made the time to be made.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(optionTexts(select)).toEqual(["All clients"]);
    expect(calls.filter((call) => call.path.startsWith("/api/continuous-monitoring/clients"))).toEqual([]);
  });

  it("offers the technologists by name (username when unnamed) after the page's own empty choice", async () => {
    const user = userEvent.setup();
    renderFilter((value, onChange) => (
      <TechnologistFilterField value={value} onChange={onChange} emptyLabel="Everyone" />
    ));

    const select = screen.getByRole("combobox", { name: "Technologist" });
    await within(select).findByRole("option", { name: "tom" });
    expect(optionTexts(select)).toEqual(["Everyone", "Tina Tech", "tom"]);
    await user.selectOptions(select, "Tina Tech");
    expect(chosen()).toBe("1f000000-0000-4000-8000-000000000001");
  });

  it("offers the reviewers by name after 'Anyone'", async () => {
    renderFilter((value, onChange) => <ReviewerFilterField value={value} onChange={onChange} />);

    const select = screen.getByRole("combobox", { name: "Reviewer" });
    await within(select).findByRole("option", { name: "Rex Reviewer" });
    expect(optionTexts(select)).toEqual(["Anyone", "Rex Reviewer"]);
  });
});
