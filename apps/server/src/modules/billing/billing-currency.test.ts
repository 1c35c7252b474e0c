import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../config.js";
import {
  billingBase,
  clientIn,
  issueStatement,
  logTime,
  monitoredCase,
  setRate,
} from "../../testing/kits/billing-kit.js";
import { type Team, teamFor } from "../../testing/kits/cases-kit.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";

describe("the currency of amounts (CURRENCY)", () => {
  it("is USD unless configured, and takes any ISO 4217 code with cents", () => {
    expect(loadConfig({}).currency).toBe("USD");
    expect(loadConfig({ CURRENCY: "EUR" }).currency).toBe("EUR");
    expect(loadConfig({ CURRENCY: "CHF" }).currency).toBe("CHF");
  });

  it("refuses a code that is not ISO 4217, not in capitals, or without 2 decimal places", () => {
    const refusal = (code: string) => {
      try {
        loadConfig({ CURRENCY: code });
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`CURRENCY=${code} was accepted`);
    };
    expect(refusal("usd")).toContain("CURRENCY: must be an ISO 4217 code in capitals, such as USD or EUR");
    expect(refusal("DOLLARS")).toContain("CURRENCY: must be an ISO 4217 code");
    expect(refusal("XQZ")).toContain("CURRENCY: is not an ISO 4217 currency code");
    // The yen has no minor unit and the Kuwaiti dinar three: amounts computed to the cent would misstate both.
    expect(refusal("JPY")).toContain("CURRENCY: must be a currency with 2 decimal places");
    expect(refusal("KWD")).toContain("CURRENCY: must be a currency with 2 decimal places");
  });
});

describe("amounts in a configured currency", () => {
  let harness: TestApp;
  let team: Team;
  beforeAll(async () => {
    harness = await createTestApp({ CURRENCY: "EUR" });
    team = await teamFor(harness, "currency");
  });
  afterAll(() => harness.close());

  it("are named on the overview, the statement and the issued statement", async () => {
    const client = await clientIn(team, "Europe/Berlin");
    const subject = await monitoredCase(harness, team, client.id);
    await logTime(team.technologist, subject.id, "2026-03-10T08:00:00.000Z", "2026-03-10T10:00:00.000Z");
    expect((await setRate(team.billing, client.id, "2026-03", "95")).statusCode).toBe(200);

    const overview = await team.billing("GET", `${billingBase}?clientId=${client.id}&from=2026-03&to=2026-03`);
    expect(overview.json().data).toMatchObject({ currency: "EUR", totals: { amount: "190.00" } });
    const statement = await team.billing("GET", `${billingBase}/${client.id}/2026-03`);
    expect(statement.json().data).toMatchObject({ currency: "EUR", totals: { amount: "190.00" } });
    const issued = await issueStatement(team.billing, client.id, "2026-03");
    expect(issued.statusCode, issued.body).toBe(201);
    expect(issued.json().data).toMatchObject({ currency: "EUR", totals: { amount: "190.00" } });
  });
});
