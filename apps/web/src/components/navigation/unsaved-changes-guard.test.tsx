import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Link, Outlet, RouterProvider, useNavigate, useSearchParams } from "react-router";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { hasUnsavedChanges } from "../../lib/unsaved-changes";
import { FormTextField } from "../forms/form-text-field";
import { useContractForm } from "../forms/use-contract-form";
import { UnsavedChangesGuard } from "./unsaved-changes-guard";

const clientSchema = z.object({ name: z.string().min(1) });

/** A create page as the screens write one: on save it marks the form saved (`reset`) and opens the result. */
function NewClientPage() {
  const navigate = useNavigate();
  const [, setSearch] = useSearchParams();
  const form = useContractForm({ schema: clientSchema, defaultValues: { name: "" } });
  const submit = form.handleSubmit(() => {
    form.reset(form.getValues());
    void navigate("/clients/1");
  });
  return (
    <form noValidate onSubmit={submit} aria-label="New client">
      <h1>New client</h1>
      <FormTextField control={form.control} name="name" label="Name" />
      <button type="submit">Create client</button>
      <button type="button" onClick={() => setSearch({ help: "open" })}>
        Show help
      </button>
    </form>
  );
}

function renderApp() {
  const router = createMemoryRouter(
    [
      {
        element: (
          <>
            <nav>
              <Link to="/cases">Cases</Link>
            </nav>
            <Outlet />
            <UnsavedChangesGuard />
          </>
        ),
        children: [
          { path: "/clients/create", element: <NewClientPage /> },
          { path: "/clients/1", element: <h1>Client 1</h1> },
          { path: "/cases", element: <h1>Cases</h1> },
        ],
      },
    ],
    { initialEntries: ["/clients/create"] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const leaveQuestion = () => screen.findByRole("dialog", { name: "Leave this page?" });

describe("leaving a page with unsaved edits", () => {
  it("lets the user go without a question while nothing was typed", async () => {
    const user = userEvent.setup();
    renderApp();
    await user.click(screen.getByRole("link", { name: "Cases" }));
    expect(await screen.findByRole("heading", { name: "Cases" })).toBeTruthy();
  });

  it("asks first, and staying keeps the page and what was typed", async () => {
    const user = userEvent.setup();
    const router = renderApp();
    await user.type(screen.getByLabelText("Name"), "St. Mary's");
    await user.click(screen.getByRole("link", { name: "Cases" }));

    await user.click(within(await leaveQuestion()).getByRole("button", { name: "Stay on this page" }));
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Leave this page?" })).toBeNull());
    expect(router.state.location.pathname).toBe("/clients/create");
    expect(screen.getByLabelText("Name")).toHaveProperty("value", "St. Mary's");
  });

  it("leaves when the user confirms, and the edits no longer hold the page", async () => {
    const user = userEvent.setup();
    const router = renderApp();
    await user.type(screen.getByLabelText("Name"), "St. Mary's");
    await user.click(screen.getByRole("link", { name: "Cases" }));

    await user.click(within(await leaveQuestion()).getByRole("button", { name: "Leave and discard" }));
    expect(await screen.findByRole("heading", { name: "Cases" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/cases");
    expect(hasUnsavedChanges()).toBe(false);
  });

  it("asks on Back as well", async () => {
    const user = userEvent.setup();
    const router = renderApp();
    await user.click(screen.getByRole("link", { name: "Cases" }));
    await screen.findByRole("heading", { name: "Cases" });
    await router.navigate(-1);
    await user.type(await screen.findByLabelText("Name"), "St. Mary's");
    void router.navigate(1);

    await user.click(within(await leaveQuestion()).getByRole("button", { name: "Stay on this page" }));
    expect(router.state.location.pathname).toBe("/clients/create");
  });

  it("goes on to the saved item without asking, although the form was dirty until the save", async () => {
    const user = userEvent.setup();
    const router = renderApp();
    await user.type(screen.getByLabelText("Name"), "St. Mary's");
    await user.click(screen.getByRole("button", { name: "Create client" }));

    expect(await screen.findByRole("heading", { name: "Client 1" })).toBeTruthy();
    expect(router.state.location.pathname).toBe("/clients/1");
    expect(screen.queryByRole("dialog", { name: "Leave this page?" })).toBeNull();
  });

  it("does not ask when only the address's query changes on the same page", async () => {
    const user = userEvent.setup();
    const router = renderApp();
    await user.type(screen.getByLabelText("Name"), "St. Mary's");
    await user.click(screen.getByRole("button", { name: "Show help" }));

    await waitFor(() => expect(router.state.location.search).toBe("?help=open"));
    expect(screen.queryByRole("dialog", { name: "Leave this page?" })).toBeNull();
    expect(screen.getByLabelText("Name")).toHaveProperty("value", "St. Mary's");
  });
});

describe("closing the tab with unsaved edits", () => {
  const unloadIsPrevented = () => {
    const event = new Event("beforeunload", { cancelable: true });
    window.dispatchEvent(event);
    return event.defaultPrevented;
  };

  it("makes the browser ask while a form is dirty, and stops once it is clean", async () => {
    const user = userEvent.setup();
    renderApp();
    expect(unloadIsPrevented()).toBe(false);
    await user.type(screen.getByLabelText("Name"), "x");
    expect(unloadIsPrevented()).toBe(true);
    await user.clear(screen.getByLabelText("Name"));
    await waitFor(() => expect(unloadIsPrevented()).toBe(false));
  });
});
