import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { Contact, EventItem } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { envelope } from "../../../../test/fake-server";
import { RecordTab } from "../../components/record-tab";
import {
  clientId,
  contactId,
  itemFields,
  jsonBody,
  listOf,
  nora,
  recordApi,
  renderRecords,
  staleBase,
  testCase,
} from "../../testing/render-records";
import { eventView } from "./event-view";

const events = recordApi("events");
const contactsApi = `/api/continuous-monitoring/clients/${clientId}/contacts`;
const eventId = "4e1e2d3c-3333-4a2b-9c3d-0000000000e1";

const adams: Contact = {
  _id: contactId,
  clientId,
  name: "Dr. Alex Adams",
  role: "Attending neurologist",
  email: "adams@example.org",
  phone: "+16175550100",
  isPrimary: true,
  notifyOnCritical: true,
  notes: null,
  version: 1,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z",
};

function event(overrides: Partial<EventItem> = {}, data: Partial<EventItem["data"]> = {}): EventItem {
  return {
    ...itemFields(eventId),
    kind: "event",
    data: {
      occurredAt: "2026-11-22T08:05:00.000Z",
      type: "seizure",
      description: "Left arm clonic jerking, 40 s.",
      notification: {
        contactId,
        name: "Dr. Alex Adams",
        method: "page",
        notifiedAt: "2026-11-22T08:10:00.000Z",
        acknowledgedAt: null,
      },
      skinCheck: null,
      ...data,
    },
    ...overrides,
  };
}

function setTime(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

describe("events", () => {
  it("shows each event in the client's zone with who was notified, and counts the unacknowledged", async () => {
    renderRecords(<RecordTab view={eventView} caseItem={testCase()} />, {
      routes: { [`GET ${events}`]: () => listOf([event()], { summary: { unacknowledged: 1 } }) },
    });
    expect(await screen.findByText("1 notification is not acknowledged yet.")).toBeTruthy();
    const item = screen.getByText("Left arm clonic jerking, 40 s.").closest("li") as HTMLElement;
    expect(within(item).getByText("Seizure")).toBeTruthy();
    expect(item.textContent).toContain("Nov 22, 2026, 03:05 EST (America/New_York)");
    expect(item.textContent).toContain("Notified Dr. Alex Adams by page at Nov 22, 2026, 03:10 EST");
    expect(within(item).getByText("Not acknowledged yet")).toBeTruthy();
  });

  it("adds a notification to one of the client's contacts, times typed in the client's zone", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: Record<string, unknown>[] = [];
    renderRecords(<RecordTab view={eventView} caseItem={testCase()} />, {
      routes: {
        [`GET ${events}`]: () => listOf([], { summary: { unacknowledged: 0 } }),
        [`GET ${contactsApi}`]: () => envelope([adams]),
        [`POST ${events}`]: async (request) => {
          posted.push(await jsonBody(request));
          return envelope(event(), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Add event" }));
    const dialog = screen.getByRole("dialog", { name: "Add event" });
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Type is required")).toBeTruthy();

    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Type" }), "notification");
    expect((within(dialog).getByRole("checkbox", { name: "Someone was notified" }) as HTMLInputElement).checked).toBe(
      true,
    );
    const contact = await within(dialog).findByRole("option", { name: /Dr\. Alex Adams/ });
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Contact" }), contact);
    expect((within(dialog).getByRole("textbox", { name: "Name" }) as HTMLInputElement).value).toBe("Dr. Alex Adams");
    expect(within(dialog).getByText("Attending neurologist · +16175550100 · adams@example.org")).toBeTruthy();
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Method" }), "page");
    setTime(/^Occurred at/, "2026-11-22T03:05");
    setTime(/^Notified at/, "2026-11-22T03:10");
    // Acknowledged before being told is refused with the contract's message.
    setTime(/^Acknowledged at/, "2026-11-22T03:00");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Acknowledged at must not be before the notification")).toBeTruthy();
    expect(posted).toHaveLength(0);
    setTime(/^Acknowledged at/, "");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));

    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      occurredAt: "2026-11-22T08:05:00.000Z",
      type: "notification",
      description: "",
      notification: {
        contactId,
        name: "Dr. Alex Adams",
        method: "page",
        notifiedAt: "2026-11-22T08:10:00.000Z",
        acknowledgedAt: null,
      },
      skinCheck: null,
    });
  });

  it("needs the skin's condition for a skin check and sends no notification unless someone was told", async () => {
    const user = userEvent.setup({ delay: null });
    const posted: Record<string, unknown>[] = [];
    renderRecords(<RecordTab view={eventView} caseItem={testCase()} />, {
      routes: {
        [`GET ${events}`]: () => listOf([], { summary: { unacknowledged: 0 } }),
        [`GET ${contactsApi}`]: () => envelope([]),
        [`POST ${events}`]: async (request) => {
          posted.push(await jsonBody(request));
          return envelope(event(), { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Add event" }));
    const dialog = screen.getByRole("dialog", { name: "Add event" });
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Type" }), "skin-check");
    setTime(/^Occurred at/, "2026-11-22T04:00");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    expect(await within(dialog).findByText("Skin condition is required")).toBeTruthy();
    await user.selectOptions(within(dialog).getByRole("combobox", { name: "Skin condition" }), "redness");
    await user.type(within(dialog).getByRole("textbox", { name: "Sites checked" }), "Fp1, Fp2");
    await user.click(within(dialog).getByRole("button", { name: "Save" }));
    await waitFor(() => expect(posted).toHaveLength(1));
    expect(posted[0]).toEqual({
      occurredAt: "2026-11-22T09:00:00.000Z",
      type: "skin-check",
      description: "",
      notification: null,
      skinCheck: { condition: "redness", sites: "Fp1, Fp2", actionTaken: "" },
    });
  });

  it("marks a notification acknowledged now with one click, as a revision of the event", async () => {
    const user = userEvent.setup({ delay: null });
    const revisions: Record<string, unknown>[] = [];
    renderRecords(<RecordTab view={eventView} caseItem={testCase()} />, {
      routes: {
        [`GET ${events}`]: () => listOf([event()], { summary: { unacknowledged: 1 } }),
        [`POST ${events}/${eventId}/revisions`]: async (request) => {
          revisions.push(await jsonBody(request));
          return envelope(event({ revision: 2 }), { status: 201 });
        },
      },
    });
    const before = Date.now();
    await user.click(await screen.findByRole("button", { name: "Mark acknowledged" }));
    await waitFor(() => expect(revisions).toHaveLength(1));
    const sent = revisions[0] as { change: string; baseRevision: number; data: EventItem["data"] };
    expect(sent.change).toBe("edit");
    expect(sent.baseRevision).toBe(1);
    expect(sent.data.description).toBe("Left arm clonic jerking, 40 s.");
    expect(Date.parse(sent.data.notification?.acknowledgedAt ?? "")).toBeGreaterThanOrEqual(before - 1000);
  });

  it("shows their newer event before re-applying an acknowledgement on top of it", async () => {
    const user = userEvent.setup({ delay: null });
    const theirs = event({ ...itemFields(eventId, 2, nora) }, { description: "Right arm, 40 s." });
    const revisions: Record<string, unknown>[] = [];
    renderRecords(<RecordTab view={eventView} caseItem={testCase()} />, {
      routes: {
        [`GET ${events}`]: () => listOf([event()], { summary: { unacknowledged: 1 } }),
        [`POST ${events}/${eventId}/revisions`]: async (request) => {
          const body = await jsonBody(request);
          revisions.push(body);
          return body.baseRevision === 1 ? staleBase(theirs) : envelope(theirs, { status: 201 });
        },
      },
    });
    await user.click(await screen.findByRole("button", { name: "Mark acknowledged" }));
    const dialog = await screen.findByRole("dialog", { name: "Acknowledge this notification" });
    const compare = within(dialog).getByRole("table", { name: "Their version compared with yours" });
    expect(within(compare).getByText("Right arm, 40 s.")).toBeTruthy();
    await user.click(within(dialog).getByRole("button", { name: "Re-apply my changes on top" }));
    await waitFor(() => expect(revisions).toHaveLength(2));
    const retried = revisions[1] as { baseRevision: number; data: EventItem["data"] };
    expect(retried.baseRevision).toBe(2);
    // Their description stays; the acknowledgement is added.
    expect(retried.data.description).toBe("Right arm, 40 s.");
    expect(retried.data.notification?.acknowledgedAt).toBeTruthy();
  });
});
