import { render, screen, within } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { coordinatorMenu } from "../../../test/fake-server";
import { homeUrlOf, unauthorizedUrlOf } from "../menu-entries";
import { NavMenu } from "./nav-menu";

function renderMenu(currentPath: string) {
  const router = createMemoryRouter(
    [{ path: "*", element: <NavMenu items={coordinatorMenu} currentPath={currentPath} /> }],
    {
      initialEntries: [currentPath],
    },
  );
  return render(<RouterProvider router={router} />);
}

describe("navigation menu", () => {
  it("renders the entries from /chrome as links, nesting children, without the Unauthorized entry", () => {
    renderMenu("/");
    const links = screen.getAllByRole("link");
    expect(links.map((link) => link.textContent)).toEqual([
      "Home",
      "Continuous monitoring",
      "Clients",
      "Monitoring",
      "Reporting",
    ]);
    expect(screen.getByRole("link", { name: "Clients" }).getAttribute("href")).toBe("/continuous-monitoring/clients");
    expect(screen.queryByText("Unauthorized")).toBeNull();
    const section = screen.getByRole("link", { name: "Continuous monitoring" }).closest("li");
    expect(section && within(section).getByRole("link", { name: "Monitoring" })).toBeInstanceOf(HTMLAnchorElement);
  });

  it("marks the entry of the current page", () => {
    renderMenu("/reporting/continuous-monitoring");
    expect(screen.getByRole("link", { name: "Reporting" }).getAttribute("aria-current")).toBe("page");
    expect(screen.getByRole("link", { name: "Home" }).getAttribute("aria-current")).toBeNull();
  });

  it("reads the homepage and the denial redirect from the Home and Unauthorized entries", () => {
    expect(homeUrlOf(coordinatorMenu)).toBe("/");
    expect(unauthorizedUrlOf([{ title: "Unauthorized", url: "/no-access" }])).toBe("/no-access");
    expect(unauthorizedUrlOf(undefined)).toBe("/unauthorized");
  });
});
