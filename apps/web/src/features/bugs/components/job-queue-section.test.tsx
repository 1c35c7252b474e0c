import { ThemeProvider } from "@mui/material/styles";
import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { JobQueue } from "@vigil/contract";
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
import { JobQueueSection } from "./job-queue-section";
import { waitInWords } from "./job-wait";

const failedId = "0b8e6c1e-5d0e-4c57-9c3a-3f1c2b7d9a10";
const longError = `SMTP refused the message: ${"550 mailbox unavailable; ".repeat(10)}end of the reply`;

function queueWith(overrides: Partial<JobQueue> = {}): JobQueue {
  return {
    kinds: [
      {
        kind: "clock-alert-sweep",
        waiting: 1,
        running: 0,
        failedLastDay: 0,
        oldestWaitingSeconds: 3900,
        maxWaitSeconds: 300,
        overdue: true,
      },
      {
        kind: "finding-messages",
        waiting: 0,
        running: 2,
        failedLastDay: 1,
        oldestWaitingSeconds: null,
        maxWaitSeconds: 300,
        overdue: false,
      },
    ],
    failed: [
      {
        id: failedId,
        kind: "finding-messages",
        attempts: 5,
        lastError: longError,
        createdAt: "2026-11-28T10:00:00.000Z",
        finishedAt: "2026-11-28T10:30:00.000Z",
      },
    ],
    ...overrides,
  };
}

function renderSection(routes: Record<string, Handler>) {
  void configureAuth(testConfig);
  storeSignedInTokens("dana", ["admin"]);
  const network = installFetch(routes);
  render(
    <QueryClientProvider client={createQueryClient()}>
      <ThemeProvider theme={theme}>
        <AccessProvider groups={["admin"]}>
          <JobQueueSection />
        </AccessProvider>
      </ThemeProvider>
    </QueryClientProvider>,
  );
  return network;
}

describe("the job queue on the integration page", () => {
  it("shows each kind's counts and oldest wait in words, and marks a kind past its limit", async () => {
    renderSection({ "GET /api/integration/jobs": () => envelope(queueWith()) });
    expect(screen.getByRole("status").textContent).toContain("Loading the job queue");
    const table = await screen.findByRole("table", { name: "Jobs per kind" });
    const sweep = within(table).getByRole("row", { name: /clock-alert-sweep/ });
    expect(
      within(sweep)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["1", "0", "0", "1 hour 5 minutes (limit 5 minutes) — overdue"]);
    const messages = within(table).getByRole("row", { name: /finding-messages/ });
    expect(
      within(messages)
        .getAllByRole("cell")
        .map((cell) => cell.textContent),
    ).toEqual(["0", "2", "1", "none due"]);
    expect(screen.getByRole("alert").textContent).toContain(
      "clock-alert-sweep: the oldest job has waited past its limit",
    );
  });

  it("truncates a long last error and shows all of it on demand", async () => {
    const user = userEvent.setup();
    renderSection({ "GET /api/integration/jobs": () => envelope(queueWith()) });
    const failed = await screen.findByRole("table", { name: "Failed jobs" });
    expect(failed.textContent).not.toContain("end of the reply");
    await user.click(within(failed).getByRole("button", { name: "Show all" }));
    expect(failed.textContent).toContain("end of the reply");
    expect(within(failed).getByRole("button", { name: "Show less" }).getAttribute("aria-expanded")).toBe("true");
  });

  it("retries a failed job after asking, then reads the queue again and says so", async () => {
    const user = userEvent.setup();
    let retried = false;
    const network = renderSection({
      "GET /api/integration/jobs": () => envelope(retried ? queueWith({ failed: [] }) : queueWith()),
      [`POST /api/integration/jobs/${failedId}/retry`]: () => {
        retried = true;
        return envelope({ id: failedId, kind: "finding-messages", state: "waiting" });
      },
    });
    const failed = await screen.findByRole("table", { name: "Failed jobs" });
    await user.click(within(failed).getByRole("button", { name: /^Retry the finding-messages job/ }));
    const dialog = screen.getByRole("dialog", { name: "Retry this job?" });
    // Nothing is sent before the administrator confirms.
    expect(network.calls.some((call) => call.method === "POST")).toBe(false);
    await user.click(within(dialog).getByRole("button", { name: "Retry" }));

    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull());
    expect(await screen.findByText(/The finding-messages job waits again/)).toBeTruthy();
    expect(await screen.findByText("No job has failed for good.")).toBeTruthy();
    expect(network.calls.filter((call) => call.method === "POST").map((call) => call.path)).toEqual([
      `/api/integration/jobs/${failedId}/retry`,
    ]);
  });

  it("keeps the dialog open with the server's reason when the retry is refused", async () => {
    const user = userEvent.setup();
    renderSection({
      "GET /api/integration/jobs": () => envelope(queueWith()),
      [`POST /api/integration/jobs/${failedId}/retry`]: () =>
        errorEnvelope(404, "not_found", `No failed job with id ${failedId}.`),
    });
    const failed = await screen.findByRole("table", { name: "Failed jobs" });
    await user.click(within(failed).getByRole("button", { name: /^Retry the finding-messages job/ }));
    const dialog = screen.getByRole("dialog", { name: "Retry this job?" });
    await user.click(within(dialog).getByRole("button", { name: "Retry" }));
    expect(await within(dialog).findByText(`No failed job with id ${failedId}.`)).toBeTruthy();
  });

  it("says when nothing failed, and shows an error with a way to read the queue again", async () => {
    const user = userEvent.setup();
    let broken = true;
    renderSection({
      "GET /api/integration/jobs": () =>
        broken
          ? errorEnvelope(503, "unavailable", "The database is not answering.")
          : envelope(queueWith({ failed: [] })),
    });
    expect(await screen.findByText(/The job queue could not be loaded: The database is not answering/)).toBeTruthy();
    broken = false;
    await user.click(screen.getByRole("button", { name: /try again|retry/i }));
    expect(await screen.findByText("No job has failed for good.")).toBeTruthy();
  });
});

describe("a wait in words", () => {
  it("reads in whole units, rounded down", () => {
    expect(waitInWords(30)).toBe("under a minute");
    expect(waitInWords(60)).toBe("1 minute");
    expect(waitInWords(3600)).toBe("1 hour");
    expect(waitInWords(3900)).toBe("1 hour 5 minutes");
    expect(waitInWords(2 * 86_400 + 4 * 3600 + 59)).toBe("2 days 4 hours");
  });
});
