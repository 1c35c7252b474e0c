import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { IntegrationCheckId, IntegrationResult } from "@vigil/contract";
import { createMemoryRouter, RouterProvider } from "react-router";
import { describe, expect, it } from "vitest";
import { AccessProvider } from "../../../components/access/access-context";
import { theme } from "../../../config/theme";
import { configureAuth } from "../../../lib/auth";
import { createQueryClient } from "../../../lib/query-client";
import {
  envelope,
  errorEnvelope,
  type Handler,
  installFetch,
  storeSignedInTokens,
  testConfig,
} from "../../../test/fake-server";
import { IntegrationTestingPage } from "./integration-testing-page";

const checks = [
  { id: "database-round-trip", title: "Database round trip", purpose: "Writes and reads back a row." },
  { id: "signing-keys", title: "Signing keys", purpose: "The token signing key is present and not expiring." },
  { id: "mail-transport", title: "Mail transport", purpose: "The SMTP server accepts a connection." },
] as const satisfies readonly { id: IntegrationCheckId; title: string; purpose: string }[];

type Pending = { id: IntegrationCheckId; answer: (response: Response) => void };

/**
 * The page against a fake server whose check runs wait until the test answers them, one by one, so what the
 * page shows between answers can be checked.
 */
function renderPage() {
  // Without federation, Amplify is configured before the first await; nothing is left to wait for.
  void configureAuth(testConfig);
  storeSignedInTokens("dana", ["developer"]);
  const pending: Pending[] = [];
  const routes: Record<string, Handler> = {
    "GET /api/bugs/integration-checks": () => envelope({ items: checks }),
  };
  for (const check of checks) {
    routes[`POST /api/bugs/integration-checks/${check.id}/run`] = () =>
      new Promise<Response>((resolve) => pending.push({ id: check.id, answer: resolve }));
  }
  const network = installFetch(routes);
  const router = createMemoryRouter([{ path: "/bugs/integration-testing", element: <IntegrationTestingPage /> }], {
    initialEntries: ["/bugs/integration-testing"],
  });
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["developer"]}>
          <RouterProvider router={router} />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );

  /** Answers the oldest waiting run of a check. */
  const answer = (id: IntegrationCheckId, response: Response) => {
    const index = pending.findIndex((entry) => entry.id === id);
    const entry = pending.splice(index, 1)[0];
    if (index < 0 || !entry) throw new Error(`No run of ${id} is waiting`);
    entry.answer(response);
  };
  const runCalls = () => network.calls.filter((call) => call.method === "POST");
  return { ...network, pending, answer, runCalls };
}

function result(id: IntegrationCheckId, overrides: Partial<IntegrationResult> = {}): IntegrationResult {
  return {
    id,
    title: checks.find((check) => check.id === id)?.title ?? id,
    status: "pass",
    summary: "Everything answered in time.",
    hint: null,
    details: {},
    durationMs: 12,
    checkedAt: "2026-11-22T14:14:00.000Z",
    ...overrides,
  };
}

function card(title: string): HTMLElement {
  return screen.getByRole("listitem", { name: title });
}

function progress(): string {
  return screen.getByRole("status").textContent ?? "";
}

describe("integration testing page", () => {
  it("starts every check at once and shows each result as it arrives, a failed request as that check's failure", async () => {
    const { answer, runCalls } = renderPage();

    await waitFor(() => expect(runCalls()).toHaveLength(3));
    expect(runCalls().map((call) => call.path)).toEqual([
      "/api/bugs/integration-checks/database-round-trip/run",
      "/api/bugs/integration-checks/signing-keys/run",
      "/api/bugs/integration-checks/mail-transport/run",
    ]);
    for (const check of checks) expect(within(card(check.title)).getByText("Running…")).toBeTruthy();
    expect(progress()).toBe("0 of 3 done");
    expect(screen.getByRole("status").getAttribute("aria-live")).toBe("polite");

    answer(
      "database-round-trip",
      envelope(
        result("database-round-trip", {
          summary: "A row went in and came back in 4 ms.",
          details: { latencyMs: 4, engine: "pglite", pooled: false },
          durationMs: 40,
        }),
      ),
    );
    await waitFor(() => expect(within(card("Database round trip")).getByText("Pass")).toBeTruthy());
    const database = card("Database round trip");
    expect(within(database).getByText("A row went in and came back in 4 ms.")).toBeTruthy();
    expect(within(database).getByText("latencyMs").nextSibling?.textContent).toBe("4");
    expect(within(database).getByText("engine").nextSibling?.textContent).toBe("pglite");
    expect(within(database).getByText("pooled").nextSibling?.textContent).toBe("no");
    expect(within(database).getByText("40 ms")).toBeTruthy();
    expect(within(card("Signing keys")).getByText("Running…")).toBeTruthy();
    expect(within(card("Mail transport")).getByText("Running…")).toBeTruthy();
    expect(progress()).toBe("1 of 3 done");

    answer(
      "signing-keys",
      envelope(
        result("signing-keys", {
          status: "fail",
          summary: "The signing key expires in 2 days.",
          hint: "Rotate the key with `npm run keys:rotate` before it expires.",
          details: { daysLeft: 2 },
          durationMs: 1500,
        }),
      ),
    );
    await waitFor(() => expect(within(card("Signing keys")).getByText("Fail")).toBeTruthy());
    const keys = card("Signing keys");
    const hint = within(keys).getByRole("alert");
    expect(hint.textContent).toBe("What to doRotate the key with `npm run keys:rotate` before it expires.");
    expect(within(keys).getByText("1.5 s")).toBeTruthy();
    expect(within(card("Mail transport")).getByText("Running…")).toBeTruthy();
    expect(progress()).toBe("2 of 3 done");

    answer("mail-transport", errorEnvelope(503, "unavailable", "The mail server did not answer"));
    await waitFor(() => expect(progress()).toBe("2 checks failed"));
    const mail = card("Mail transport");
    expect(within(mail).getByText("Fail")).toBeTruthy();
    expect(within(mail).getByRole("alert").textContent).toBe(
      "The check could not be runHTTP 503: The mail server did not answer",
    );
    expect(within(card("Database round trip")).getByText("Pass")).toBeTruthy();
  });

  it("runs every check again, or just one, and says when all passed", async () => {
    const user = userEvent.setup();
    const { answer, runCalls } = renderPage();
    await waitFor(() => expect(runCalls()).toHaveLength(3));
    expect(screen.getByRole("button", { name: "Run all again" })).toHaveProperty("disabled", true);

    for (const check of checks) answer(check.id, envelope(result(check.id)));
    await waitFor(() => expect(progress()).toBe("All checks passed"));

    await user.click(screen.getByRole("button", { name: "Run all again" }));
    await waitFor(() => expect(runCalls()).toHaveLength(6));
    expect(progress()).toBe("0 of 3 done");
    for (const check of checks) expect(within(card(check.title)).getByText("Running…")).toBeTruthy();

    answer("database-round-trip", envelope(result("database-round-trip")));
    answer("signing-keys", envelope(result("signing-keys")));
    answer("mail-transport", envelope(result("mail-transport", { status: "skipped", summary: "No mail set up." })));
    await waitFor(() => expect(progress()).toBe("All checks passed (1 skipped as not applicable here)"));
    expect(within(card("Mail transport")).getByText("Skipped")).toBeTruthy();

    await user.click(screen.getByRole("button", { name: "Run again: Signing keys" }));
    await waitFor(() => expect(runCalls()).toHaveLength(7));
    expect(runCalls().at(-1)?.path).toBe("/api/bugs/integration-checks/signing-keys/run");
    expect(within(card("Signing keys")).getByText("Running…")).toBeTruthy();
    expect(within(card("Database round trip")).getByText("Pass")).toBeTruthy();
    expect(progress()).toBe("2 of 3 done");

    answer("signing-keys", envelope(result("signing-keys")));
    await waitFor(() => expect(within(card("Signing keys")).getByText("Pass")).toBeTruthy());
  });

  it("shows a check with messages waiting for a retry as a warning with what to do, never as a plain pass", async () => {
    const { answer, runCalls } = renderPage();
    await waitFor(() => expect(runCalls()).toHaveLength(3));
    answer("database-round-trip", envelope(result("database-round-trip")));
    answer("signing-keys", envelope(result("signing-keys")));
    answer(
      "mail-transport",
      envelope(
        result("mail-transport", {
          status: "warning",
          summary: "1 message(s) wait for a retry after a failed attempt.",
          hint: "Fix the transport named there.",
        }),
      ),
    );
    await waitFor(() => expect(progress()).toBe("No check failed; 1 check with a warning"));
    const warned = card("Mail transport");
    expect(within(warned).getByText("Warning")).toBeTruthy();
    expect(within(warned).queryByText("Pass")).toBeNull();
    expect(within(warned).getByRole("alert").textContent).toContain("Fix the transport named there.");
  });
});
