import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderClientScreen, testClient } from "../testing/render-client-screen";

const createPath = "/continuous-monitoring/clients/create";

/** Long values are pasted: typing them key by key through MUI in jsdom takes seconds. */
async function fill(user: ReturnType<typeof userEvent.setup>, input: HTMLElement, text: string) {
  await user.click(input);
  await user.paste(text);
}

function field(label: RegExp | string) {
  return screen.getByLabelText(label) as HTMLInputElement;
}

/** The helper text MUI ties to a field through aria-describedby. */
function messageOf(input: HTMLElement): string {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

function errorEnvelopeWith(status: number, code: string, message: string, details?: unknown) {
  return Response.json({ enoch: "release-1", error: { status, code, message, details } }, { status });
}

describe("new client form", () => {
  it("shows the contract's messages as the user types, tied to the field", async () => {
    const user = userEvent.setup();
    renderClientScreen(createPath);
    const code = field(/^Code/);

    await user.type(code, "x");
    expect(code.getAttribute("aria-invalid")).toBe("true");
    expect(messageOf(code)).toBe("Code must be 2–16 letters, digits or dashes");
    await user.type(code, "y");
    expect(code.getAttribute("aria-invalid")).toBe("false");

    const phone = field(/^Phone/);
    await fill(user, phone, "555-0100");
    expect(messageOf(phone)).toBe("Phone must be a phone number in international form, e.g. +15555550100");
    await user.clear(phone);
    await fill(user, phone, "+1 617 555 0100");
    expect(phone.getAttribute("aria-invalid")).toBe("false");

    const zone = field(/^Time zone/);
    await fill(user, zone, "Mars/Olympus");
    expect(messageOf(zone)).toBe("Time zone must be an IANA time zone such as America/Chicago");
    // Untouched fields stay quiet until the user submits.
    expect(field(/^Name/).getAttribute("aria-invalid")).toBe("false");
  });

  it("on submit marks every invalid field and moves focus to the first one", async () => {
    const user = userEvent.setup();
    const { calls } = renderClientScreen(createPath);
    await user.click(screen.getByRole("button", { name: "Create client" }));
    const name = field(/^Name/);
    expect(messageOf(name)).toBe("Name is required");
    expect(document.activeElement).toBe(name);
    expect(field(/^Time zone/).getAttribute("aria-invalid")).toBe("true");
    expect(calls.filter((call) => call.method === "POST")).toHaveLength(0);
  });

  it("shows the server's field messages: a taken code (409) and a 400 issue", async () => {
    const user = userEvent.setup();
    let attempt = 0;
    renderClientScreen(createPath, {
      routes: {
        "POST /api/continuous-monitoring/clients": () => {
          attempt++;
          return attempt === 1
            ? errorEnvelopeWith(409, "conflict", "The client code SMRMC is already taken.", {
                field: "code",
                issues: [
                  { path: "body.code", message: "SMRMC is already used by another client (archived ones included)" },
                ],
              })
            : errorEnvelopeWith(400, "bad_request", "Invalid request", {
                issues: [{ path: "body.name", message: "is already used by another client" }],
              });
        },
      },
    });
    await fill(user, field(/^Name/), "St. Mary's");
    await fill(user, field(/^Code/), "smrmc");
    await fill(user, field(/^Time zone/), "America/New_York");
    await user.click(screen.getByRole("button", { name: "Create client" }));

    const code = field(/^Code/);
    await waitFor(() =>
      expect(messageOf(code)).toBe("SMRMC is already used by another client (archived ones included)"),
    );
    expect(document.activeElement).toBe(code);

    await user.clear(code);
    await fill(user, code, "SMRMC2");
    expect(messageOf(code)).toBe("2–16 letters, digits or dashes; unique");
    await user.click(screen.getByRole("button", { name: "Create client" }));
    await waitFor(() => expect(messageOf(field(/^Name/))).toBe("Name is already used by another client"));
  });

  it("sends the parsed input and opens the new client's overview", async () => {
    const user = userEvent.setup();
    const created = testClient({ id: "3f2e1d0c-4b5a-4968-8776-a5b4c3d2e1f0", code: "NEW-1" });
    const bodies: unknown[] = [];
    const { location } = renderClientScreen(createPath, {
      routes: {
        "POST /api/continuous-monitoring/clients": async ({ text }) => {
          bodies.push(JSON.parse(await text()));
          return envelope(created, { status: 201 });
        },
        [`GET /api/continuous-monitoring/clients/${created.id}`]: () => envelope(created),
      },
    });
    await fill(user, field(/^Name/), "  New Clinic ");
    await fill(user, field(/^Code/), "new-1");
    await fill(user, field(/^Time zone/), "Europe/Berlin");
    await user.click(screen.getByRole("button", { name: "Create client" }));

    await waitFor(() => expect(location()).toBe(`/continuous-monitoring/clients/${created.id}/overview`));
    expect(bodies[0]).toEqual({
      name: "New Clinic",
      code: "NEW-1",
      status: "active",
      timezone: "Europe/Berlin",
      phone: null,
      addressLine1: null,
      addressLine2: null,
      city: null,
      region: null,
      postalCode: null,
      country: null,
      notes: null,
    });
  });
});
