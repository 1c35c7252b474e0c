import { screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../test/fake-server";
import { renderPageScreens } from "../../../test/render-page-screens";
import { ClockAlertEmailSection } from "./clock-alert-email-section";

function renderSection(groups: string[]) {
  return renderPageScreens(
    "/account",
    { account: () => <ClockAlertEmailSection emailVerified /> },
    { groups, routes: { "GET /api/notifications/preferences": () => envelope({ emailClockAlerts: false }) } },
  );
}

describe("the clock alerts preference", () => {
  it("offers the e-mail copy to those who own clocks", async () => {
    for (const group of ["technologist", "reviewer", "coordinator"]) {
      const view = renderSection([group]);
      const section = await screen.findByRole("region", { name: "Clock alerts" });
      expect(await within(section).findByRole("switch", { name: "E-mail me my clock alerts" })).toBeTruthy();
      view.unmount();
    }
  });

  it("explains instead of offering it to developers and billing, whose groups own no clock", async () => {
    for (const group of ["developer", "billing"]) {
      const view = renderSection([group]);
      const section = await screen.findByRole("region", { name: "Clock alerts" });
      expect(within(section).queryByRole("switch")).toBeNull();
      expect(section.textContent).toContain("Your access groups own none");
      expect(view.calls.some((call) => call.path.startsWith("/api/notifications"))).toBe(false);
      view.unmount();
    }
  });
});
