import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { FhirPushSettings } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { ClientDetailRoutePage } from "../../../app/routes/client-detail-route";
import { envelope, errorEnvelope, type Handler } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { api, client, clientId } from "../testing/interfaces-client";

const jwksUrl = "https://vigil.example/fhir/.well-known/jwks.json";

const saved: FhirPushSettings = {
  clientId,
  enabled: true,
  baseUrl: "https://fhir.smrmc.example/r4",
  tokenUrl: null,
  systemClientId: "vigil-at-smrmc",
  scopes: ["system/DiagnosticReport.cu", "system/Binary.c"],
  version: 1,
  updatedAt: "2026-11-29T13:00:00.000Z",
  updatedBy: { sub: null, username: "ada", name: "Ada Admin" },
};

function renderTab(groups: string[], routes: Record<string, Handler>) {
  return renderPageScreens(
    `/continuous-monitoring/clients/${clientId}/interfaces`,
    { "client-detail": ClientDetailRoutePage },
    {
      groups,
      routes: {
        [`GET ${api}`]: () => envelope(client),
        [`GET ${api}/interface-profile`]: () => envelope({ clientId, current: null, history: [] }),
        [`GET ${api}/fhir-systems`]: () => envelope({ items: [] }),
        ...routes,
      },
    },
  );
}

describe("the Interfaces tab's FHIR push", () => {
  it("shows a coordinator where reports go and Vigil's JWKS URL, without a way to change it", async () => {
    renderTab(["coordinator"], { [`GET ${api}/fhir-push`]: () => envelope({ settings: saved, jwksUrl }) });
    const shown = await screen.findByRole("group", { name: "FHIR push" });
    expect(shown.textContent).toContain("On: to https://fhir.smrmc.example/r4 as vigil-at-smrmc");
    expect(shown.textContent).toContain("the server's SMART configuration");
    expect(screen.getByText(new RegExp(jwksUrl.replaceAll(".", "\\.")))).toBeTruthy();
    expect(screen.queryByRole("button", { name: /FHIR push/ })).toBeNull();
  });

  it("lets an administrator set it up, refusing a plain-http address before sending, then a stale base", async () => {
    const user = userEvent.setup();
    const bodies: unknown[] = [];
    renderTab(["admin"], {
      [`GET ${api}/fhir-push`]: () => envelope({ settings: null, jwksUrl }),
      [`PUT ${api}/fhir-push`]: async ({ text }) => {
        bodies.push(JSON.parse(await text()));
        return bodies.length === 1
          ? envelope({ settings: { ...saved, scopes: ["system/DiagnosticReport.cu"] }, jwksUrl })
          : errorEnvelope(409, "conflict", "The FHIR push settings have changed: they are at version 2.");
      },
    });
    await user.click(await screen.findByRole("button", { name: "Set up FHIR push" }));
    const form = screen.getByRole("form", { name: "FHIR push settings" });
    await user.type(
      within(form).getByRole("textbox", { name: "Hospital FHIR base URL" }),
      "http://fhir.smrmc.example/r4",
    );
    await user.type(within(form).getByRole("textbox", { name: "Vigil's client id there" }), "vigil-at-smrmc");
    const scopes = within(form).getByRole("textbox", { name: "Scopes to request" });
    await user.clear(scopes);
    await user.type(scopes, "system/DiagnosticReport.cu");
    await user.click(within(form).getByRole("button", { name: "Save push settings" }));
    expect(await within(form).findByText(/plain http only for localhost/)).toBeTruthy();
    expect(bodies).toHaveLength(0);

    const base = within(form).getByRole("textbox", { name: "Hospital FHIR base URL" });
    await user.clear(base);
    await user.type(base, "https://fhir.smrmc.example/r4");
    await user.click(within(form).getByRole("button", { name: "Save push settings" }));
    const shown = await screen.findByRole("group", { name: "FHIR push" });
    expect(shown.textContent).toContain("scopes system/DiagnosticReport.cu.");
    expect(bodies).toEqual([
      {
        baseVersion: null,
        enabled: true,
        baseUrl: "https://fhir.smrmc.example/r4",
        tokenUrl: null,
        systemClientId: "vigil-at-smrmc",
        scopes: ["system/DiagnosticReport.cu"],
      },
    ]);

    // A change based on version 1 that another administrator overtook: the server's words, the form kept.
    await user.click(screen.getByRole("button", { name: "Change FHIR push" }));
    const again = screen.getByRole("form", { name: "FHIR push settings" });
    await user.click(within(again).getByRole("checkbox", { name: "Push signed reports" }));
    await user.click(within(again).getByRole("button", { name: "Save push settings" }));
    expect((await within(again).findByRole("alert")).textContent).toContain("have changed: they are at version 2");
    expect(bodies[1]).toMatchObject({ baseVersion: 1, enabled: false });
  });
});
