import { act, render, screen } from "@testing-library/react";
import { createMemoryRouter, RouterProvider } from "react-router";
import { afterEach, describe, expect, it } from "vitest";
import { apiErrorPage, clearApiErrors, pushApiError } from "../../lib/api-errors";
import { ApiErrorStack } from "./api-error-stack";

const badCaseAddress = { status: 400, code: "bad_request", message: "params.id must be a valid id" } as const;

function renderAt(path: string) {
  const router = createMemoryRouter([{ path: "*", element: <ApiErrorStack /> }], { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => clearApiErrors());

describe("the error list", () => {
  it("shows an error on the page that caused it and forgets it when the user leaves", async () => {
    const router = renderAt("/continuous-monitoring/cases/monitoring/not-an-id/overview");
    act(() => {
      pushApiError(badCaseAddress, { method: "GET", path: "/continuous-monitoring/cases/not-an-id" });
    });
    expect(screen.getByText("params.id must be a valid id")).toBeInstanceOf(HTMLElement);

    await act(() => router.navigate("/continuous-monitoring/clients/create"));
    expect(screen.queryByText("params.id must be a valid id")).toBeNull();
    await act(() => router.navigate("/continuous-monitoring/cases/monitoring/not-an-id/overview"));
    expect(screen.queryByText("params.id must be a valid id")).toBeNull();
  });

  it("keeps a late answer's error on the page that asked, not on the one the user went on to", async () => {
    const router = renderAt("/continuous-monitoring/cases/intake");
    const askedFrom = apiErrorPage();
    await act(() => router.navigate("/continuous-monitoring/clients"));
    act(() => {
      pushApiError(badCaseAddress, { method: "GET", path: "/continuous-monitoring/cases/intake" }, askedFrom);
    });
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("shows errors raised before any page was on screen on the first page", () => {
    pushApiError(
      { status: 503, code: "unavailable", message: "The database is not answering" },
      {
        method: "GET",
        path: "/chrome",
      },
    );
    renderAt("/");
    expect(screen.getByText("The database is not answering")).toBeInstanceOf(HTMLElement);
  });
});
