import { act, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter, Link, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { typingDelayMs, useDebouncedText } from "./use-debounced-text";
import { useSearchState } from "./use-search-state";

/** A list's filters as the log and the audit pages have them: a text sent after a pause, a choice sent at once. */
function Filters() {
  const [values, update] = useSearchState({ search: "", status: "" });
  const [text, setText] = useDebouncedText(values.search, (search) => update({ search }, { replace: true }));
  return (
    <>
      <label>
        Search
        <input value={text} onChange={(event) => setText(event.target.value)} />
      </label>
      <label>
        Status
        <select value={values.status} onChange={(event) => update({ status: event.target.value })}>
          <option value="">Any status</option>
          <option value="processed">Processed</option>
          <option value="rejected">Rejected</option>
        </select>
      </label>
      <Link to="/messages/7">Message 7</Link>
    </>
  );
}

function startList({ detailLoadsAfterMs = 0, listLoadsForMs = 0 } = {}) {
  let releaseDetail: () => void = () => {};
  const detailLoaded = new Promise<void>((resolve) => {
    releaseDetail = resolve;
  });
  const router = createMemoryRouter(
    [
      {
        path: "/messages",
        Component: Filters,
        // A navigation that takes a moment to finish, as one does on a busy machine.
        loader: () =>
          listLoadsForMs > 0 ? new Promise((resolve) => setTimeout(() => resolve(null), listLoadsForMs)) : null,
      },
      {
        path: "/messages/:id",
        // A screen in its own chunk: the navigation waits for it, and the list stays on screen meanwhile.
        lazy: async () => {
          if (detailLoadsAfterMs > 0) await detailLoaded;
          return { Component: () => <h1>Message 7</h1> };
        },
      },
    ],
    { initialEntries: ["/messages?status=rejected"] },
  );
  render(<RouterProvider router={router} />);
  return { router, releaseDetail };
}

const wait = (ms: number) => act(() => new Promise((resolve) => setTimeout(resolve, ms)));

describe("a list's filters in the URL", () => {
  it("keeps a choice made while typed text waits for its pause, and the text too", async () => {
    const { router } = startList({ listLoadsForMs: 2 * typingDelayMs });
    await screen.findByLabelText("Search");
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Search"), "LOG1");
    // The choice is made just before the pause ends; its navigation is still under way when the text is sent.
    await wait(typingDelayMs / 2);
    await user.selectOptions(screen.getByLabelText("Status"), "processed");
    await wait(3 * typingDelayMs);

    const search = new URLSearchParams(router.state.location.search);
    expect(search.get("status")).toBe("processed");
    expect(search.get("search")).toBe("LOG1");
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("processed");
  });

  it("does not hold a user on the list who followed a link before the typed text was sent", async () => {
    const { router, releaseDetail } = startList({ detailLoadsAfterMs: 1 });
    await screen.findByLabelText("Search");
    const user = userEvent.setup();
    await user.type(screen.getByLabelText("Search"), "LOG1");
    await user.click(screen.getByRole("link", { name: "Message 7" }));
    // The typing pause ends while the message's screen is still loading.
    await wait(typingDelayMs + 200);
    releaseDetail();

    expect(await screen.findByRole("heading", { level: 1, name: "Message 7" })).toBeInstanceOf(HTMLHeadingElement);
    expect(router.state.location.pathname).toBe("/messages/7");
  });

  it("starts from the URL as it is when nothing is under way", async () => {
    const { router } = startList();
    await screen.findByLabelText("Search");
    const user = userEvent.setup();
    await user.selectOptions(screen.getByLabelText("Status"), "");
    expect(router.state.location.search).toBe("");
    await user.selectOptions(screen.getByLabelText("Status"), "processed");
    expect(router.state.location.search).toBe("?status=processed");
  });
});
