import { fireEvent, screen, waitFor } from "@testing-library/react";
import { type User, userEtag } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope, testUser } from "../../test/fake-server";
import { renderPageScreens } from "../../test/render-page-screens";
import { ProfessionalIdentityForm } from "./professional-identity-form";

function renderForm(user: User) {
  const sent: { body: unknown; ifMatch: string | null }[] = [];
  const routes = {
    "PUT /api/users/ada/professional": async ({ text, headers }: { text: () => Promise<string>; headers: Headers }) => {
      const body = JSON.parse(await text());
      sent.push({ body, ifMatch: headers.get("if-match") });
      return envelope({ ...user, professional: body, updatedAt: "2026-02-01T00:00:00.000Z" });
    },
  };
  renderPageScreens(
    "/account",
    { account: () => <ProfessionalIdentityForm user={user} /> },
    { username: "ada", routes },
  );
  return sent;
}

/** Whole values at once: the form checks each change, so typing key by key adds nothing here but time. */
function type(label: string, value: string) {
  fireEvent.change(screen.getByRole("textbox", { name: label }), { target: { value } });
}

describe("the professional details form", () => {
  it("says plainly when an NPI's check digit is wrong, and sends nothing", async () => {
    const sent = renderForm(testUser({ username: "ada" }));
    await screen.findByRole("textbox", { name: "NPI" });
    type("NPI", "1234567890");
    fireEvent.click(screen.getByRole("button", { name: "Save professional details" }));
    expect(await screen.findByText(/check digit/)).toBeTruthy();
    expect(sent).toEqual([]);
  }, 60_000);

  it("saves names in parts, credentials, NPI and one certification per line, on the version it was opened on", async () => {
    const user = testUser({ username: "ada" });
    const sent = renderForm(user);
    await screen.findByRole("textbox", { name: "NPI" });
    type("Given names", "Ada  Augusta");
    type("Family name", "Lovelace");
    type("Credentials", "MD, PhD");
    type("NPI", "1234567893");
    type("Board certifications", "ABPN Neurology\n\nABPN Epilepsy");
    const saveButton = screen.getByRole("button", { name: "Save professional details" }) as HTMLButtonElement;
    await waitFor(() => expect(saveButton.disabled).toBe(false));
    fireEvent.click(saveButton);
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(await screen.findByText(/Reports signed from now on print these details/)).toBeTruthy();
    expect(sent).toEqual([
      {
        ifMatch: userEtag(user),
        body: {
          familyName: "Lovelace",
          givenNames: ["Ada", "Augusta"],
          npi: "1234567893",
          credentials: "MD, PhD",
          boardCertifications: ["ABPN Neurology", "ABPN Epilepsy"],
        },
      },
    ]);
  }, 60_000);
});
