import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { SmartClient } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { ClientDetailRoutePage } from "../../../app/routes/client-detail-route";
import { envelope, errorEnvelope, type Handler } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { api, client, clientId, tabPath } from "../testing/interfaces-client";

// A P-384 public key as a hospital would paste it (generated once with jose), and the same key with its private "d".
const publicKey = {
  kty: "EC",
  crv: "P-384",
  x: "v1nKPjqQ6Gx3ZKXMCMrx0h6yYbW3pxtR0KdvkNvyn7c7rzA3E2s0Y0d2pnGmJ3Ui",
  y: "4Hqm3q5H1yB8N1yWQn3yHkE8o9x9sF3RSmZjWkkXy1w1X4mH1aYQmR0y7QPzYvUt",
  kid: "epic-2026",
  alg: "ES384",
};
const privateKey = { ...publicKey, d: "Ys7P3m8C4v1i0cQ5o9bT2kP1hV7xN3eR6wL8aJ0zS4fD2gU5yH9tB1nM7qK3rE6c" };

const system: SmartClient = {
  id: "5a0e8b1c-1111-4000-8000-000000000001",
  clientId,
  systemClientId: "epic-smrmc-prod",
  name: "Epic at St. Mary's",
  jwksUrl: "https://fhir.smrmc.example/jwks.json",
  jwks: null,
  scopes: ["system/DiagnosticReport.rs", "system/Patient.rs"],
  enabled: true,
  version: 1,
  createdAt: "2026-11-22T14:14:00.000Z",
  updatedAt: "2026-11-22T14:14:00.000Z",
  updatedBy: { sub: null, username: "ada", name: "Ada Admin" },
};

function renderTab(groups: string[], routes: Record<string, Handler>) {
  return renderPageScreens(
    tabPath,
    { "client-detail": ClientDetailRoutePage },
    {
      groups,
      routes: {
        [`GET ${api}`]: () => envelope(client),
        [`GET ${api}/interface-profile`]: () => envelope({ clientId, current: null, history: [] }),
        ...routes,
      },
    },
  );
}

describe("the Interfaces tab's FHIR hospital systems", () => {
  it("lists the registered systems for a coordinator, without registration controls", async () => {
    renderTab(["coordinator"], { [`GET ${api}/fhir-systems`]: () => envelope({ items: [system] }) });
    const table = await screen.findByRole("table", { name: "FHIR hospital systems" });
    expect(within(table).getByText("epic-smrmc-prod")).toBeTruthy();
    expect(within(table).getByText("https://fhir.smrmc.example/jwks.json")).toBeTruthy();
    expect(within(table).getByText("system/DiagnosticReport.rs system/Patient.rs")).toBeTruthy();
    expect(screen.queryByRole("button", { name: "Register a hospital system" })).toBeNull();
    expect(screen.queryByRole("button", { name: /^Change/ })).toBeNull();
  });

  it("lets an administrator register one, refusing a private key and a v1 scope before anything is sent", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    let saved: SmartClient | null = null;
    renderTab(["admin"], {
      [`GET ${api}/fhir-systems`]: () => envelope({ items: saved ? [saved] : [] }),
      [`POST ${api}/fhir-systems`]: async ({ text }) => {
        const body = JSON.parse(await text());
        bodies.push(body);
        saved = { ...system, systemClientId: "vigil-made-id", jwksUrl: null, jwks: body.jwks, scopes: body.scopes };
        return envelope(saved, { status: 201 });
      },
    });
    expect(await screen.findByText("No hospital system is registered to reach this client over FHIR.")).toBeTruthy();
    await user.click(screen.getByRole("button", { name: "Register a hospital system" }));
    const form = screen.getByRole("form", { name: "Register a hospital system" });
    await user.type(within(form).getByRole("textbox", { name: "Name" }), "Epic at St. Mary's");
    await user.selectOptions(within(form).getByRole("combobox", { name: "Public keys" }), "jwks");
    const jwks = within(form).getByRole("textbox", { name: "JWKS" });
    await user.click(jwks);
    await user.paste(JSON.stringify({ keys: [privateKey] }));
    const scopes = within(form).getByRole("textbox", { name: "Allowed scopes" });
    await user.clear(scopes);
    await user.type(scopes, "system/DiagnosticReport.read");
    await user.click(within(form).getByRole("button", { name: "Register" }));

    expect(await within(form).findByText(/Key 1 \(d\) is a private key member/)).toBeTruthy();
    expect(within(form).getByText(/"system\/DiagnosticReport.read" must be a SMART v2 system scope/)).toBeTruthy();
    expect(jwks.getAttribute("aria-invalid")).toBe("true");
    expect(bodies).toHaveLength(0);

    await user.clear(jwks);
    await user.click(jwks);
    await user.paste(JSON.stringify({ keys: [publicKey] }));
    await user.clear(scopes);
    await user.type(scopes, "system/DiagnosticReport.rs{Enter}system/Task.cru");
    await user.click(within(form).getByRole("button", { name: "Register" }));

    const table = await screen.findByRole("table", { name: "FHIR hospital systems" });
    expect(within(table).getByText("vigil-made-id")).toBeTruthy();
    expect(within(table).getByText("1 pasted key")).toBeTruthy();
    expect(bodies).toEqual([
      {
        name: "Epic at St. Mary's",
        jwksUrl: null,
        jwks: { keys: [publicKey] },
        scopes: ["system/DiagnosticReport.rs", "system/Task.cru"],
        enabled: true,
      },
    ]);
  });

  it("shows the server's refusal of a client id another client holds, keeping the form", async () => {
    const user = userEvent.setup();
    renderTab(["admin"], {
      [`GET ${api}/fhir-systems`]: () => envelope({ items: [] }),
      [`POST ${api}/fhir-systems`]: () =>
        errorEnvelope(409, "conflict", "The client id epic-prod is already registered for Mercy General."),
    });
    await user.click(await screen.findByRole("button", { name: "Register a hospital system" }));
    const form = screen.getByRole("form", { name: "Register a hospital system" });
    await user.type(within(form).getByRole("textbox", { name: "Name" }), "Epic");
    await user.type(within(form).getByRole("textbox", { name: "Client id (optional)" }), "epic-prod");
    await user.type(within(form).getByRole("textbox", { name: "JWKS URL" }), "https://fhir.smrmc.example/jwks.json");
    await user.click(within(form).getByRole("button", { name: "Register" }));
    expect((await within(form).findByRole("alert")).textContent).toContain("already registered for Mercy General");
    await waitFor(() =>
      expect((within(form).getByRole("textbox", { name: "Client id (optional)" }) as HTMLInputElement).value).toBe(
        "epic-prod",
      ),
    );
  });

  it("lets an administrator turn a system off, sending the version it was based on", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderTab(["admin"], {
      [`GET ${api}/fhir-systems`]: () => envelope({ items: [system] }),
      [`PUT ${api}/fhir-systems/${system.id}`]: async ({ text }) => {
        bodies.push(JSON.parse(await text()));
        return envelope({ ...system, enabled: false, version: 2 });
      },
    });
    const table = await screen.findByRole("table", { name: "FHIR hospital systems" });
    await user.click(within(table).getByRole("button", { name: "Change Epic at St. Mary's" }));
    const form = screen.getByRole("form", { name: "Change Epic at St. Mary's" });
    expect(within(form).queryByRole("textbox", { name: "Client id (optional)" })).toBeNull();
    await user.click(within(form).getByRole("checkbox", { name: "May connect" }));
    await user.click(within(form).getByRole("button", { name: "Save changes" }));
    await screen.findByRole("table", { name: "FHIR hospital systems" });
    expect(bodies).toEqual([
      {
        name: "Epic at St. Mary's",
        jwksUrl: "https://fhir.smrmc.example/jwks.json",
        jwks: null,
        scopes: ["system/DiagnosticReport.rs", "system/Patient.rs"],
        enabled: false,
        baseVersion: 1,
      },
    ]);
  });
});
