import { fireEvent, render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { AuthenticatorKey } from "./authenticator-key";

const secret = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

afterEach(() => vi.restoreAllMocks());

describe("the authenticator key", () => {
  it("is shown in groups of four, with no spaces in its text", () => {
    render(<AuthenticatorKey secret={secret} />);
    const key = screen.getByLabelText("Key for the authenticator app");
    expect([...key.querySelectorAll("span")].map((group) => group.textContent)).toEqual([
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
      "JBSW",
      "Y3DP",
      "EHPK",
      "3PXP",
    ]);
    expect(key.textContent).toBe(secret);
  });

  it("copies the key without spaces, from the button or from a selection", async () => {
    // After userEvent's setup, which puts a clipboard of its own in place.
    const user = userEvent.setup();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, "clipboard", { value: { writeText }, configurable: true });
    render(<AuthenticatorKey secret={secret} />);
    await user.click(screen.getByRole("button", { name: "Copy key" }));
    expect(writeText).toHaveBeenCalledWith(secret);
    expect(await screen.findByRole("button", { name: "Key copied" })).toBeInstanceOf(HTMLButtonElement);

    vi.spyOn(window, "getSelection").mockReturnValue({ toString: () => "JBSW Y3DP\nEHPK" } as Selection);
    const setData = vi.fn();
    fireEvent.copy(screen.getByLabelText("Key for the authenticator app"), { clipboardData: { setData } });
    expect(setData).toHaveBeenCalledWith("text/plain", "JBSWY3DPEHPK");
  });
});
