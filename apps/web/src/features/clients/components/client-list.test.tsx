import { screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { envelope } from "../../../test/fake-server";
import { page, renderClientScreen, testClient } from "../testing/render-client-screen";

const lakeside = testClient({
  id: "2a0e4c1b-6d8f-4e1a-9b2c-3d4e5f607182",
  name: "Lakeside Children's Hospital",
  code: "LCH",
  status: "inactive",
  timezone: "America/Chicago",
  openCaseCount: 0,
});

/** jsdom's Blob has no `text()`; FileReader it has. */
function readBlob(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(blob);
  });
}

describe("client list", () => {
  it("renders the server's page and reads search, status and page from the URL", async () => {
    const { calls } = renderClientScreen("/continuous-monitoring/clients?search=lake&status=inactive&page=1", {
      routes: { "GET /api/continuous-monitoring/clients": () => envelope(page([lakeside], 26, 25, 25)) },
    });

    const table = await screen.findByRole("table", { name: "Clients" });
    const row = (await within(table).findByRole("link", { name: "Lakeside Children's Hospital" })).closest("tr");
    expect(row && within(row).getByText("LCH")).toBeTruthy();
    expect(row && within(row).getByText("America/Chicago")).toBeTruthy();
    expect(row && within(row).getByText("Inactive")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Lakeside Children's Hospital" }).getAttribute("href")).toBe(
      `/continuous-monitoring/clients/${lakeside.id}/overview`,
    );

    const listCall = calls.find((call) => call.path.startsWith("/api/continuous-monitoring/clients"));
    const query = new URL(listCall?.path ?? "", "http://localhost").searchParams;
    expect(Object.fromEntries(query)).toEqual({
      search: "lake",
      status: "inactive",
      sort: "name",
      order: "asc",
      limit: "25",
      offset: "25",
    });
    expect((screen.getByLabelText("Search") as HTMLInputElement).value).toBe("lake");
    expect((screen.getByLabelText("Status") as HTMLSelectElement).value).toBe("inactive");
    expect(screen.getByText("26–26 of 26")).toBeTruthy();
  });

  it("keeps a changed filter, search and sort in the URL and starts again at the first page", async () => {
    const user = userEvent.setup();
    const { calls, location } = renderClientScreen("/continuous-monitoring/clients?page=2", {
      routes: {
        "GET /api/continuous-monitoring/clients": ({ url }) =>
          envelope(page(url.searchParams.get("status") === "archived" ? [] : [testClient()], 1)),
      },
    });
    await screen.findByRole("link", { name: "St. Mary's Regional Medical Center" });

    await user.selectOptions(screen.getByLabelText("Status"), "archived");
    await waitFor(() => expect(location()).toBe("/continuous-monitoring/clients?status=archived"));
    expect(await screen.findByText("No archived clients.")).toBeTruthy();

    await user.type(screen.getByLabelText("Search"), "smr");
    await waitFor(() => expect(location()).toBe("/continuous-monitoring/clients?status=archived&search=smr"));

    await user.click(screen.getByRole("button", { name: "Code" }));
    await waitFor(() => expect(location()).toBe("/continuous-monitoring/clients?status=archived&search=smr&sort=code"));
    await waitFor(() =>
      expect(calls.at(-1)?.path).toBe(
        "/api/continuous-monitoring/clients?status=archived&sort=code&order=asc&limit=25&offset=0&search=smr",
      ),
    );
  });

  it("exports every page of the current filter as CSV, 200 rows at a time, with progress", async () => {
    const user = userEvent.setup();
    const clients = Array.from({ length: 450 }, (_unused, index) =>
      testClient({ id: `00000000-0000-4000-8000-${String(index).padStart(12, "0")}`, name: `Client ${index}` }),
    );
    clients[0] = testClient({ id: clients[0]?.id, name: "=HYPERLINK(evil)", notes: 'says "hi", twice' });
    const blobs: Blob[] = [];
    vi.spyOn(URL, "createObjectURL").mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return "blob:export";
    });
    vi.spyOn(URL, "revokeObjectURL").mockImplementation(() => {});
    vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(() => {});
    const { calls } = renderClientScreen("/continuous-monitoring/clients?status=active", {
      routes: {
        "GET /api/continuous-monitoring/clients": ({ url }) => {
          const limit = Number(url.searchParams.get("limit"));
          const offset = Number(url.searchParams.get("offset"));
          return envelope(page(clients.slice(offset, offset + limit), clients.length, limit, offset));
        },
      },
    });
    await screen.findByRole("link", { name: "=HYPERLINK(evil)" });

    await user.click(screen.getByRole("button", { name: "Export CSV" }));
    await waitFor(() => expect(blobs).toHaveLength(1));

    const exportCalls = calls.filter((call) => call.path.includes("limit=200"));
    expect(exportCalls.map((call) => new URL(call.path, "http://localhost").searchParams.get("offset"))).toEqual([
      "0",
      "200",
      "400",
    ]);
    expect(exportCalls.every((call) => call.path.includes("status=active"))).toBe(true);
    const text = await readBlob(blobs[0] as Blob);
    const lines = text
      .replace(/^\uFEFF/, "")
      .trimEnd()
      .split("\r\n");
    expect(lines).toHaveLength(451);
    expect(lines[0]).toMatch(/^Name,Code,Status,Time zone,Open cases/);
    expect(lines[1]).toContain(`'=HYPERLINK(evil),SMRMC,Active,America/New_York,2`);
    expect(lines[1]).toContain(`"says ""hi"", twice"`);
    await waitFor(() => expect(screen.queryByRole("dialog", { name: "Exporting clients" })).toBeNull());
  });

  it("offers New client only to users who may write clients", async () => {
    renderClientScreen("/continuous-monitoring/clients", {
      groups: ["technologist"],
      routes: { "GET /api/continuous-monitoring/clients": () => envelope(page([testClient()])) },
    });
    await screen.findByRole("link", { name: "St. Mary's Regional Medical Center" });
    expect(screen.queryByRole("link", { name: "New client" })).toBeNull();
    expect(screen.getByRole("button", { name: "Export CSV" })).toBeTruthy();
  });

  it("shows New client to a coordinator and Restore on archived clients to an administrator", async () => {
    const archived = testClient({ archivedAt: "2026-11-20T10:00:00.000Z" });
    const restored: string[] = [];
    renderClientScreen("/continuous-monitoring/clients?status=archived", {
      groups: ["admin"],
      routes: {
        "GET /api/continuous-monitoring/clients": () => envelope(page([archived])),
        [`POST /api/continuous-monitoring/clients/${archived.id}/restore`]: ({ url }) => {
          restored.push(url.pathname);
          return envelope({ ...archived, archivedAt: null, version: 4 });
        },
      },
    });
    const user = userEvent.setup();
    expect(await screen.findByRole("link", { name: "New client" })).toBeTruthy();
    await user.click(await screen.findByRole("button", { name: `Restore ${archived.name}` }));
    await waitFor(() => expect(restored).toHaveLength(1));
  });
});
