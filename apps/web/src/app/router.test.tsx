import { render, screen, waitFor } from "@testing-library/react";
import {
  type FindingLinkView,
  type PageDefinition,
  pageList,
  pages,
  type ReportLinkView,
  specRoutes,
  toRoutePattern,
} from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../lib/query-client";
import { envelope, installFetch, testConfig } from "../test/fake-server";
import { App } from "./app";
import { baseLayoutRouteId, chromeLayoutRouteId, createAppRouter, createRoutes, pageComponents } from "./router";

/** Spec §2, verbatim, with `{param}` written React Router style. */
const specPatterns = specRoutes.map(toRoutePattern);

const baseLayoutRoutes = [
  "/signin",
  "/report/:token",
  "/reporting/continuous-monitoring/:clientId",
  "/billing/continuous-monitoring/:clientId/:month",
  "/continuous-monitoring/cases/:caseId/reports/:reportId/print",
];

function layoutRoutes() {
  const [root] = createRoutes();
  const children = root?.children ?? [];
  const pathsUnder = (id: string) =>
    children.find((route) => route.id === id)?.children?.map((route) => route.path) ?? [];
  return {
    base: pathsUnder(baseLayoutRouteId),
    chrome: pathsUnder(chromeLayoutRouteId),
    catchAll: children.some((route) => route.path === "*"),
  };
}

describe("page table → router", () => {
  it("has a route for every spec route, in the layout the spec gives it", () => {
    const { base, chrome } = layoutRoutes();
    for (const path of specPatterns) {
      const inBase = base.includes(path);
      const inChrome = chrome.includes(path);
      expect({ path, inBase, inChrome }).toEqual({
        path,
        inBase: baseLayoutRoutes.includes(path),
        inChrome: !baseLayoutRoutes.includes(path),
      });
    }
  });

  it("routes no page the spec does not list, except the account page, intake case detail, audit viewer, accounting of disclosures, HL7 message log and its message page, interface conformance page, report download page, invoice download page, report's printable page, invoices list and printable invoice, receivables, payments, statement of account and exports, watch board and unit-test tab's address the contract adds", () => {
    const { base, chrome, catchAll } = layoutRoutes();
    const extra = [...base, ...chrome].filter((path) => path && !specPatterns.includes(path));
    expect(extra.sort()).toEqual([
      "/account",
      "/acknowledge/:token",
      "/audit",
      "/audit/disclosures",
      "/billing/exports",
      "/billing/invoices",
      "/billing/invoices/:invoiceId",
      "/billing/payments",
      "/billing/receivables",
      "/billing/receivables/:clientId",
      "/bugs/unit-tests",
      "/continuous-monitoring/cases/:caseId/reports/:reportId/print",
      "/continuous-monitoring/cases/intake/:caseId/:tab",
      "/interfaces/conformance",
      "/interfaces/hl7/messages",
      "/interfaces/hl7/messages/:messageId",
      "/invoice/:token",
      "/report/:token",
      "/reporting/service-levels",
      "/watch",
    ]);
    expect(catchAll).toBe(true);
  });

  it("uses the default layout for the index and chrome for everything else", () => {
    const layouts = Object.fromEntries((pageList as readonly PageDefinition[]).map((page) => [page.path, page.layout]));
    expect(layouts["/"]).toBe("default");
    for (const path of specPatterns) {
      if (path === "/") continue;
      expect({ path, layout: layouts[path] }).toEqual({
        path,
        layout: baseLayoutRoutes.includes(path) ? "base" : "app",
      });
    }
  });

  it("maps every page to a screen component that loads", async () => {
    for (const page of pageList) {
      const load = pageComponents[page.id];
      expect(load, page.id).toBeTypeOf("function");
      expect(await load?.(), page.id).toBeTypeOf("function");
    }
  });
});

describe("the critical-finding acknowledgement page", () => {
  const token = `${"a".repeat(32)}.t0k3n.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;

  it("is a public page of the base layout", () => {
    expect(layoutRoutes().base).toContain("/acknowledge/:token");
    expect(pages["finding-acknowledgement"].access).toBe("public");
  });

  it("opens signed out without the sign-in redirect, and the token travels only in the request's body", async () => {
    window.location.hash = `#/acknowledge/${token}`;
    const bodies: unknown[] = [];
    const { calls } = installFetch({
      "GET /api/config": () => envelope(testConfig),
      "POST /api/finding-links/lookup": async ({ text }) => {
        bodies.push(JSON.parse(await text()));
        return envelope({
          caseNumber: "CM-2026-000123",
          clientName: "Pacific Neurology Institute",
          timeZone: "America/Los_Angeles",
          kind: "electrographic-seizure",
          onsetAt: "2026-11-22T14:02:00.000Z",
          raisedAt: "2026-11-22T14:10:00.000Z",
          description: "Right temporal rhythmic discharges evolving over 40 s.",
          recipientName: "Dr. Nia Neuro",
          patient: null,
          location: { unit: "Neuro ICU", room: "12", bed: "B" },
          dueAt: "2026-11-22T14:25:00.000Z",
          teamPhone: "+1 555 0100",
          status: "open",
          acknowledgedAt: null,
          acknowledgedBy: null,
          readBack: null,
          readBackConfirmed: false,
          linkExpiresAt: "2026-11-23T14:10:00.000Z",
        } satisfies FindingLinkView);
      },
    });
    render(<App router={createAppRouter()} queryClient={createQueryClient()} />);

    expect(await screen.findByRole("heading", { name: "Critical EEG finding" })).toBeInstanceOf(HTMLElement);
    expect(await screen.findByText("Electrographic seizure (ESz)")).toBeInstanceOf(HTMLElement);
    expect(screen.getByRole("button", { name: "Acknowledge" })).toBeInstanceOf(HTMLButtonElement);
    expect(decodeURIComponent(window.location.hash)).toBe(`#/acknowledge/${token}`);
    await waitFor(() => expect(document.title).toBe("Acknowledge a critical finding – Vigil"));
    expect(bodies).toEqual([{ token }]);
    const lookup = calls.find((call) => call.path.startsWith("/api/finding-links"));
    expect(lookup).toEqual({ method: "POST", path: "/api/finding-links/lookup", authorization: null });
    expect(calls.some((call) => call.path.includes(token))).toBe(false);
    const stored = [window.localStorage, window.sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`),
    );
    expect(stored.filter((entry) => entry.includes(token))).toEqual([]);
  });
});

describe("the report download page", () => {
  const token = `${"b".repeat(32)}.r3p0rt.c2lnbmF0dXJlLXNpZ25hdHVyZQ`;

  it("is a public page of the base layout", () => {
    expect(layoutRoutes().base).toContain("/report/:token");
    expect(pages["report-download"].access).toBe("public");
  });

  it("opens signed out without the sign-in redirect, and the token travels only in the request's body", async () => {
    window.location.hash = `#/report/${token}`;
    const bodies: unknown[] = [];
    const { calls } = installFetch({
      "GET /api/config": () => envelope(testConfig),
      "POST /api/report-links/lookup": async ({ text }) => {
        bodies.push(JSON.parse(await text()));
        return envelope({
          companyName: "Vigil Neurodiagnostics",
          clientName: "Pacific Neurology Institute",
          caseNumber: "CM-2026-000123",
          title: "EEG report — daily, 2026-11-21 to 2026-11-22",
          version: 1,
          kind: "signed",
          signedAt: "2026-11-22T15:30:00.000Z",
          signedBy: "Dr. Riley Reviewer",
          recipientName: "Dr. Nia Neuro",
          linkExpiresAt: "2026-11-29T15:30:00.000Z",
          timeZone: "America/Los_Angeles",
        } satisfies ReportLinkView);
      },
    });
    render(<App router={createAppRouter()} queryClient={createQueryClient()} />);

    expect(await screen.findByRole("heading", { name: "EEG report" })).toBeInstanceOf(HTMLElement);
    expect(await screen.findByText("CM-2026-000123")).toBeInstanceOf(HTMLElement);
    expect(screen.getByRole("button", { name: "Download PDF" })).toBeInstanceOf(HTMLButtonElement);
    expect(decodeURIComponent(window.location.hash)).toBe(`#/report/${token}`);
    await waitFor(() => expect(document.title).toBe("Download an EEG report – Vigil"));
    expect(bodies).toEqual([{ token }]);
    const lookup = calls.find((call) => call.path.startsWith("/api/report-links"));
    expect(lookup).toEqual({ method: "POST", path: "/api/report-links/lookup", authorization: null });
    expect(calls.some((call) => call.path.includes(token))).toBe(false);
    const stored = [window.localStorage, window.sessionStorage].flatMap((storage) =>
      Object.keys(storage).map((key) => `${key}=${storage.getItem(key)}`),
    );
    expect(stored.filter((entry) => entry.includes(token))).toEqual([]);
  });
});
