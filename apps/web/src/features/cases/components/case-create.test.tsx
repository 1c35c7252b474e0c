import { screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { caseId, clientId, renderCaseScreen, testCase } from "../testing/render-case-screen";

const createPath = "/continuous-monitoring/cases/create";

function field(label: RegExp | string) {
  return screen.getByLabelText(label) as HTMLInputElement;
}

function messageOf(input: HTMLElement): string {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? "").join(" ");
}

describe("new case form", () => {
  it("checks the fields as they are typed and on submit, without calling the server", async () => {
    const user = userEvent.setup();
    const { calls } = renderCaseScreen(createPath);
    await screen.findByRole("option", { name: "Pacific Neurology Institute (PNI)" });

    const mrn = field(/^MRN/);
    await user.type(mrn, "x");
    await user.clear(mrn);
    expect(mrn.getAttribute("aria-invalid")).toBe("true");
    expect(messageOf(mrn)).toBe("MRN is required");
    await user.type(mrn, "MRN-1");
    expect(mrn.getAttribute("aria-invalid")).toBe("false");

    await user.click(screen.getByRole("button", { name: "Create case" }));
    // A choice left empty is missing, in the same words as a text field left empty.
    expect(messageOf(field(/^Client/))).toBe("Client is required");
    expect(messageOf(field(/^Study type/))).toBe("Study type is required");
    expect(messageOf(field(/^First name/))).toBe("First name is required");
    expect(calls.some((call) => call.path === "/api/continuous-monitoring/cases")).toBe(false);
  });

  it("refuses a date of birth that has not come yet, as the server does", async () => {
    const user = userEvent.setup();
    renderCaseScreen(createPath);
    await screen.findByRole("option", { name: "Pacific Neurology Institute (PNI)" });
    const born = field(/^Date of birth/);
    await user.type(born, "2099-01-01");
    expect(messageOf(born)).toBe("Date of birth must not be in the future");
    await user.clear(born);
    await user.type(born, "1957-03-14");
    expect(born.getAttribute("aria-invalid")).toBe("false");
  });

  it("shows the server's messages on their fields, and opens the new case's intake page on success", async () => {
    const user = userEvent.setup();
    let attempts = 0;
    const bodies: unknown[] = [];
    const { location } = renderCaseScreen(createPath, {
      routes: {
        "POST /api/continuous-monitoring/cases": async ({ text }) => {
          bodies.push(JSON.parse(await text()));
          attempts += 1;
          if (attempts === 1) {
            return Response.json(
              {
                enoch: "release-1",
                error: {
                  status: 400,
                  code: "bad_request",
                  message: "Invalid request",
                  details: { issues: [{ path: "body.patient.mrn", message: "is already open in another case" }] },
                },
              },
              { status: 400 },
            );
          }
          return envelope(testCase(), { status: 201 });
        },
        [`GET /api/continuous-monitoring/cases/${caseId}`]: () => envelope(testCase()),
      },
    });
    await screen.findByRole("option", { name: "Pacific Neurology Institute (PNI)" });
    await user.selectOptions(field(/^Client/), clientId);
    await user.selectOptions(field(/^Study type/), "icu-ceeg");
    await user.type(field(/^MRN/), "MRN-0042");
    await user.type(field(/^First name/), "Jamie");
    await user.type(field(/^Last name/), "Rivera");
    await user.type(field(/^Unit/), "Neuro ICU");
    await user.click(screen.getByRole("button", { name: "Create case" }));

    await waitFor(() => expect(messageOf(field(/^MRN/))).toBe("MRN is already open in another case"));
    expect(bodies[0]).toMatchObject({
      clientId,
      studyType: "icu-ceeg",
      hasVideo: false,
      priority: "routine",
      patient: {
        mrn: "MRN-0042",
        firstName: "Jamie",
        lastName: "Rivera",
        dateOfBirth: null,
        sex: "unknown",
        location: { unit: "Neuro ICU", room: null, bed: null },
        notes: null,
      },
    });

    await user.type(field(/^MRN/), "B");
    await user.click(screen.getByRole("button", { name: "Create case" }));
    await waitFor(() => expect(location()).toBe(`/continuous-monitoring/cases/intake/${caseId}/overview`));
  });
});
