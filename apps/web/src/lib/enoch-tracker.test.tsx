import { act, render, screen } from "@testing-library/react";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { NewVersionBanner } from "../components/feedback/new-version-banner";
import { getEnochState, recordEnoch } from "./enoch-tracker";
import { useUnsavedChanges } from "./unsaved-changes";

/** A form as later screens will write one: it reports its dirty flag through `useUnsavedChanges`. */
let setDirty: (dirty: boolean) => void = () => {};
function EditForm() {
  const [dirty, setDirtyState] = useState(false);
  setDirty = setDirtyState;
  useUnsavedChanges(dirty);
  return <p>{dirty ? "editing" : "clean"}</p>;
}

describe("enoch tracker", () => {
  it("sets the flag when enoch differs from the first value seen and clears it when it matches again", () => {
    recordEnoch("release-1");
    expect(getEnochState().changed).toBe(false);
    recordEnoch("release-2");
    expect(getEnochState()).toEqual({ loadedWith: "release-1", latest: "release-2", changed: true });
    recordEnoch("release-1");
    expect(getEnochState().changed).toBe(false);
  });

  it("shows the new-version banner while enoch differs", () => {
    render(<NewVersionBanner />);
    expect(screen.queryByText(/new version of Vigil/)).toBeNull();
    act(() => {
      recordEnoch("release-1");
      recordEnoch("release-2");
    });
    expect(screen.getByText(/A new version of Vigil is available/)).toBeInstanceOf(HTMLElement);
    expect(screen.getByRole("button", { name: "Reload" })).toBeInstanceOf(HTMLButtonElement);
    act(() => recordEnoch("release-1"));
    expect(screen.queryByText(/new version of Vigil/)).toBeNull();
  });

  it("holds the banner back while a form has unsaved edits", () => {
    render(
      <>
        <NewVersionBanner />
        <EditForm />
      </>,
    );
    act(() => setDirty(true));
    act(() => {
      recordEnoch("release-1");
      recordEnoch("release-2");
    });
    expect(getEnochState().changed).toBe(true);
    expect(screen.queryByText(/new version of Vigil/)).toBeNull();
    act(() => setDirty(false));
    expect(screen.getByText(/A new version of Vigil is available/)).toBeInstanceOf(HTMLElement);
  });
});
