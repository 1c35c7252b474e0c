import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { InterfaceProfileRevision, InterfaceTestResult } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { ClientDetailRoutePage } from "../../../app/routes/client-detail-route";
import { envelope, type Handler } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { api, client, clientId, tabPath } from "../testing/interfaces-client";

function revision(number: number, overrides: Partial<InterfaceProfileRevision> = {}): InterfaceProfileRevision {
  return {
    id: `1d7a0c52-0000-4000-8000-00000000000${number}`,
    clientId,
    revision: number,
    enabled: true,
    sendingApplication: "EPIC",
    sendingFacility: "SMRMC",
    mrnAssigningAuthority: "SMRMC-MRN",
    visitNumberSource: "PV1-19",
    receivingApplication: "EPICCARE",
    receivingFacility: "SMRMC",
    destination: { host: "engine.smrmc.example", port: 6661, tls: true, caCertificate: null },
    resultStyle: "ORU^R01",
    hl7Version: "2.5.1",
    orderStatusUpdates: false,
    changeNote: `Revision ${number}`,
    author: { sub: null, username: "ada", name: "Ada Admin" },
    createdAt: `2026-11-2${number}T14:14:00.000Z`,
    ...overrides,
  };
}

function renderTab(groups: string[], routes: Record<string, Handler>, path = tabPath) {
  return renderPageScreens(
    path,
    { "client-detail": ClientDetailRoutePage },
    {
      groups,
      // The tab also lists the hospital's FHIR systems (fhir-systems.test.tsx); none here.
      routes: {
        [`GET ${api}`]: () => envelope(client),
        [`GET ${api}/fhir-systems`]: () => envelope({ items: [] }),
        // …and where signed reports are pushed over FHIR (fhir-push-settings.test.tsx); nowhere here.
        [`GET ${api}/fhir-push`]: () =>
          envelope({ settings: null, jwksUrl: "https://vigil.example/fhir/.well-known/jwks.json" }),
        ...routes,
      },
    },
  );
}

const profileOf = (...history: InterfaceProfileRevision[]) => ({ clientId, current: history[0] ?? null, history });

describe("the client's Interfaces tab", () => {
  it("lays out the profile and its history for a coordinator, without edit or test controls", async () => {
    const second = revision(2, { resultStyle: "MDM^T02", changeNote: "Documents" });
    renderTab(["coordinator"], { [`GET ${api}/interface-profile`]: () => envelope(profileOf(second, revision(1))) });
    expect(await screen.findByRole("heading", { name: "Current interface profile: revision 2" })).toBeTruthy();
    expect(screen.getByRole("tab", { name: "Interfaces" })).toBeTruthy();
    // The conformance page the hospital's interface team is shown (interface-conformance-page.test.tsx).
    expect(screen.getByRole("link", { name: "Interface conformance" }).getAttribute("href")).toBe(
      "/interfaces/conformance",
    );
    expect(screen.getByText("SMRMC-MRN")).toBeTruthy();
    expect(screen.getAllByText("engine.smrmc.example:6661 over TLS (the system's trusted CAs)").length).toBeGreaterThan(
      0,
    );
    expect(screen.getByText(/MDM\^T02 — a document/)).toBeTruthy();
    const history = screen.getByRole("table", { name: "Interface profile revisions" });
    expect(within(history).getAllByRole("row")).toHaveLength(3);
    expect(within(history).getByText("Documents")).toBeTruthy();
    expect(screen.queryByRole("button", { name: /Edit the profile/ })).toBeNull();
    expect(screen.queryByRole("button", { name: "Send a test message" })).toBeNull();
  });

  it("is not offered to a technologist, who cannot read interface profiles", async () => {
    renderTab(["technologist"], {}, `/continuous-monitoring/clients/${clientId}/overview`);
    expect(await screen.findByRole("tab", { name: "Overview" })).toBeTruthy();
    expect(screen.queryByRole("tab", { name: "Interfaces" })).toBeNull();
  });

  it("lets an administrator save the first profile, showing the server's field messages first", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    let saved: InterfaceProfileRevision | null = null;
    renderTab(["admin"], {
      [`GET ${api}/interface-profile`]: () => envelope(saved ? profileOf(saved) : profileOf()),
      [`POST ${api}/interface-profile/revisions`]: async ({ text }) => {
        const body = JSON.parse(await text());
        bodies.push(body);
        if (bodies.length === 1) {
          return Response.json(
            {
              enoch: "release-1",
              error: {
                status: 400,
                code: "bad_request",
                message: "Invalid request",
                details: { issues: [{ path: "body.sendingFacility", message: "is not a facility the hospital uses" }] },
              },
            },
            { status: 400 },
          );
        }
        saved = revision(1, { destination: null, changeNote: body.changeNote });
        return envelope(saved, { status: 201 });
      },
    });
    await user.click(await screen.findByRole("button", { name: "Set up the interface" }));
    await user.type(screen.getByRole("textbox", { name: "Sending application (MSH-3)" }), "EPIC");
    await user.type(screen.getByRole("textbox", { name: "Sending facility (MSH-4)" }), "SMRMC");
    await user.type(screen.getByRole("textbox", { name: "MRN assigning authority (PID-3.4)" }), "SMRMC-MRN");
    await user.type(screen.getByRole("textbox", { name: "Receiving application (MSH-5)" }), "EPICCARE");
    await user.type(screen.getByRole("textbox", { name: "Receiving facility (MSH-6)" }), "SMRMC");
    await user.type(screen.getByRole("textbox", { name: "Change note (optional)" }), "First profile");
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    expect(await screen.findByText("Sending facility (MSH-4) is not a facility the hospital uses")).toBeTruthy();
    expect(bodies[0]).toMatchObject({
      baseRevision: null,
      sendingApplication: "EPIC",
      destination: null,
      resultStyle: "ORU^R01",
      hl7Version: "2.5.1",
      orderStatusUpdates: false,
      changeNote: "First profile",
    });
    // Order status updates are off until asked for; the checkbox turns them on.
    await user.click(screen.getByRole("checkbox", { name: "Send order status updates (ORC-5)" }));
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    expect(await screen.findByRole("heading", { name: "Current interface profile: revision 1" })).toBeTruthy();
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toMatchObject({ orderStatusUpdates: true });
  });

  it("checks the destination as typed: a host without a port is not saved", async () => {
    const user = userEvent.setup();
    const { calls } = renderTab(["admin"], {
      [`GET ${api}/interface-profile`]: () => envelope(profileOf(revision(1, { destination: null }))),
    });
    await user.click(await screen.findByRole("button", { name: "Edit the profile" }));
    await user.type(screen.getByRole("textbox", { name: "Host" }), "engine.smrmc.example");
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    expect(await screen.findByText(/^Port /)).toBeTruthy();
    expect(calls.some((call) => call.method === "POST")).toBe(false);
  });

  it("shows the revision someone saved meanwhile on a stale base, and saves on top of it when asked", async () => {
    const user = userEvent.setup();
    const theirs = revision(2, { changeNote: "Their change", author: { sub: null, username: "bo", name: "Bo Admin" } });
    const bases: unknown[] = [];
    renderTab(["admin"], {
      [`GET ${api}/interface-profile`]: () => envelope(profileOf(revision(1))),
      [`POST ${api}/interface-profile/revisions`]: async ({ text }) => {
        const body = JSON.parse(await text());
        bases.push(body.baseRevision);
        if (body.baseRevision === 1) {
          return Response.json(
            {
              enoch: "release-1",
              error: {
                status: 409,
                code: "conflict",
                message: "The interface profile has changed: it is at revision 2",
                details: { current: theirs, currentRevision: 2, baseRevision: 1 },
              },
            },
            { status: 409 },
          );
        }
        return envelope(revision(3), { status: 201 });
      },
    });
    await user.click(await screen.findByRole("button", { name: "Edit the profile" }));
    await user.click(screen.getByRole("checkbox", { name: "Send order status updates (ORC-5)" }));
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    const alert = await screen.findByRole("alert");
    expect(within(alert).getByText("Someone revised this profile first")).toBeTruthy();
    expect(alert.textContent).toContain("Revision 2 was saved by Bo Admin");
    expect(screen.getByRole("heading", { name: "Current interface profile: revision 2" })).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Build on revision 2" }));
    expect(screen.getByText(/^Based on revision 2\./)).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Save revision" }));
    await waitFor(() => expect(bases).toEqual([1, 2]));
  });

  it("sends a test message and shows the plain-words result with the acknowledgement", async () => {
    const user = userEvent.setup();
    const result: InterfaceTestResult = {
      ok: true,
      ackCode: "AA",
      summary: "The hospital's system accepted the test message (AA) in 120 ms.",
      ack: "MSH|^~\\&|EPICCARE|SMRMC|VIGIL|VIGIL|20261129||ACK^N01|A1|P|2.5.1\nMSA|AA|V123",
      durationMs: 120,
      messageId: "6a1e2d3c-0000-4a2b-9c3d-000000000001",
    };
    renderTab(["admin"], {
      [`GET ${api}/interface-profile`]: () => envelope(profileOf(revision(1))),
      [`POST ${api}/interface-profile/test-message`]: () => envelope(result),
    });
    await user.click(await screen.findByRole("button", { name: "Send a test message" }));
    const status = await screen.findByText(result.summary);
    expect(status).toBeTruthy();
    expect(screen.getByText("Accepted")).toBeTruthy();
    expect(screen.getByLabelText("The acknowledgement as received").textContent).toContain("MSA|AA|V123");
  });
});
