import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { type User, userEtag } from "@vigil/contract";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../lib/query-client";
import {
  coordinatorMenu,
  envelope,
  errorEnvelope,
  type Handler,
  installFetch,
  storeSignedInTokens,
  testConfig,
  testUser,
} from "../../test/fake-server";
import { App } from "../app";
import { createAppRouter } from "../router";

const admin = testUser({ username: "root", name: "Robin Root", email: "root@example.org", groups: ["admin"] });

function sampleUsers(): User[] {
  return [
    admin,
    testUser({
      username: "ada",
      sub: "11111111-1111-4111-8111-111111111111",
      name: "Ada Lovelace",
      email: "ada@example.org",
      phoneNumber: "+15555550142",
      groups: ["technologist"],
      mfa: { sms: false, totp: true, preferred: "SOFTWARE_TOKEN_MFA" },
    }),
    testUser({
      username: "bert",
      sub: "22222222-2222-4222-8222-222222222222",
      name: "Bert Brown",
      email: "bert@example.org",
      groups: ["reviewer"],
      isEnabled: false,
    }),
    testUser({
      username: "cleo",
      sub: "33333333-3333-4333-8333-333333333333",
      name: "Cleo Chen",
      email: "cleo@example.org",
      groups: [],
      status: "FORCE_CHANGE_PASSWORD",
    }),
  ];
}

/** A small in-memory user service answering like Vigil's: paging, search, filters, If-Match. */
function fakeUserService(users: User[] = sampleUsers()) {
  const list: Handler = ({ url }) => {
    const query = url.searchParams;
    const search = query.get("search")?.toLowerCase();
    const matching = users.filter(
      (user) =>
        (!search || [user.username, user.name, user.email].some((value) => value.toLowerCase().includes(search))) &&
        (!query.get("group") || user.groups.includes(query.get("group") as User["groups"][number])) &&
        (!query.get("enabled") || String(user.isEnabled) === query.get("enabled")),
    );
    const limit = Number(query.get("limit") ?? 50);
    const offset = Number(query.get("offset") ?? 0);
    return envelope({ items: matching.slice(offset, offset + limit), total: matching.length, limit, offset });
  };
  const find = (username: string) => users.find((user) => user.username === username) as User;
  const replace = (updated: User) => {
    users[users.findIndex((user) => user.sub === updated.sub)] = updated;
    return updated;
  };
  const bump = (user: User, change: Partial<User>) =>
    replace({ ...user, ...change, updatedAt: new Date(Date.parse(user.updatedAt) + 1000).toISOString() });
  const routes: Record<string, Handler> = {
    "GET /api/users": list,
    "GET /api/users/root": () => envelope(admin),
    "POST /api/users": async ({ text }) => {
      const body = JSON.parse(await text());
      if (users.some((user) => user.username === body.username)) {
        return Response.json(
          {
            enoch: "release-1",
            error: {
              status: 409,
              code: "conflict",
              message: `A user named ${body.username} already exists.`,
              details: {
                issues: [{ path: "body.username", message: `A user named ${body.username} already exists.` }],
              },
            },
          },
          { status: 409 },
        );
      }
      const user = testUser({ ...body, sub: "44444444-4444-4444-8444-444444444444", status: "FORCE_CHANGE_PASSWORD" });
      users.push(user);
      return envelope(
        { user, delivery: { channel: "email", destination: "d***a@example.org", transport: "outbox" } },
        { status: 201 },
      );
    },
  };
  for (const user of users) {
    const path = `/api/users/${user.username}`;
    const guarded =
      (apply: (current: User, body: Record<string, unknown>) => User): Handler =>
      async ({ headers, text }) => {
        const current = find(user.username);
        if (headers.get("if-match") !== userEtag(current)) {
          return Response.json(
            {
              enoch: "release-1",
              error: {
                status: 412,
                code: "precondition_failed",
                message: `${current.username} was changed by someone else.`,
                details: { current },
              },
            },
            { status: 412 },
          );
        }
        return envelope(apply(current, JSON.parse(await text())));
      };
    routes[`PUT ${path}/toggle`] = guarded((current, body) => bump(current, { isEnabled: Boolean(body.isEnabled) }));
    routes[`PUT ${path}/access-groups`] = guarded((current, body) =>
      bump(current, { groups: body.groups as User["groups"] }),
    );
    routes[`PUT ${path}/contact`] = guarded((current, body) => {
      const phoneNumber = (body.phoneNumber as string | null) ?? null;
      return bump(current, {
        email: body.email as string,
        emailVerified: body.email === current.email ? current.emailVerified : false,
        phoneNumber,
        phoneNumberVerified: phoneNumber === current.phoneNumber ? current.phoneNumberVerified : false,
      });
    });
    routes[`POST ${path}/reset-password`] = () =>
      envelope({ user: bump(find(user.username), { status: "RESET_REQUIRED" }), delivery: null });
    routes[`PUT ${path}/sms-mfa`] = guarded((current, body) =>
      bump(current, { mfa: { ...current.mfa, sms: Boolean(body.enabled) } }),
    );
    routes[`POST ${path}/reset-mfa`] = () =>
      envelope(bump(find(user.username), { mfa: { sms: false, totp: false, preferred: null } }));
  }
  return { users, routes, bump };
}

function startUsersScreen(path = "/users", routes: Record<string, Handler> = fakeUserService().routes) {
  storeSignedInTokens("root", ["admin"]);
  window.location.hash = `#${path}`;
  const network = installFetch({
    "GET /api/config": () => envelope(testConfig),
    "GET /api/chrome": () => envelope({ items: coordinatorMenu }),
    "GET /api/chrome/breadcrumbs": () => envelope({ items: [{ title: "Users", url: null }] }),
    ...routes,
  });
  render(<App router={createAppRouter()} queryClient={createQueryClient()} />);
  return network;
}

const table = () => screen.getByRole("table", { name: "Users" });
const rowOf = (username: string) => screen.getByRole("rowheader", { name: username }).closest("tr") as HTMLElement;
const hash = () => decodeURIComponent(window.location.hash);
const listCalls = (calls: { method: string; path: string }[]) =>
  calls.filter((call) => call.method === "GET" && call.path.startsWith("/api/users?")).map((call) => call.path);

async function chooseOption(label: string, option: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole("combobox", { name: label }));
  await user.click(await screen.findByRole("option", { name: option }));
}

async function openAction(username: string, action: string) {
  const user = userEvent.setup();
  await user.click(within(rowOf(username)).getByRole("button", { name: `Actions for ${username}` }));
  await user.click(await screen.findByRole("menuitem", { name: action }));
}

// Whole-app journeys with typing: slower than the 5 s default when every test project runs at once.
describe("the users screen", () => {
  it("loads a server page and shows groups, account, password status and MFA per user", async () => {
    const { calls } = startUsersScreen();
    expect(await screen.findByRole("heading", { name: "Users" })).toBeInstanceOf(HTMLElement);
    expect(await screen.findByText("Loading users…")).toBeInstanceOf(HTMLElement);
    await screen.findByRole("rowheader", { name: "ada" });
    expect(listCalls(calls)[0]).toBe("/api/users?limit=25&offset=0&sort=username&order=asc");
    expect(within(rowOf("ada")).getByText("Technologist")).toBeInstanceOf(HTMLElement);
    expect(within(rowOf("ada")).getByText("Authenticator app (preferred)")).toBeInstanceOf(HTMLElement);
    expect(within(rowOf("bert")).getByText("Disabled")).toBeInstanceOf(HTMLElement);
    expect(within(rowOf("cleo")).getByText("Temporary password")).toBeInstanceOf(HTMLElement);
    expect(within(rowOf("cleo")).getByText("No groups")).toBeInstanceOf(HTMLElement);
    expect(within(table()).getAllByRole("row")).toHaveLength(5);
  });

  it("keeps search and filters in the URL and asks the server with them", async () => {
    const { calls } = startUsersScreen();
    await screen.findByRole("rowheader", { name: "ada" });
    const user = userEvent.setup();
    await user.type(screen.getByRole("textbox", { name: "Search" }), "lovelace");
    await waitFor(() => expect(hash()).toBe("#/users?search=lovelace"));
    await waitFor(() => expect(screen.queryByRole("rowheader", { name: "bert" })).toBeNull());
    expect(listCalls(calls).at(-1)).toContain("search=lovelace");

    await user.click(screen.getAllByRole("button", { name: "Clear filters" })[0] as HTMLElement);
    await screen.findByRole("rowheader", { name: "bert" });
    await chooseOption("Account", "Disabled");
    await waitFor(() => expect(hash()).toBe("#/users?enabled=false"));
    await waitFor(() => expect(screen.queryByRole("rowheader", { name: "ada" })).toBeNull());
    expect(screen.getByRole("rowheader", { name: "bert" })).toBeInstanceOf(HTMLElement);
    await chooseOption("Access group", "Coordinator");
    expect(await screen.findByText("No users match these filters.")).toBeInstanceOf(HTMLElement);
    expect(hash()).toBe("#/users?group=coordinator&enabled=false");
  });

  it("opens with the filters and page of its URL", async () => {
    const { calls } = startUsersScreen("/users?group=reviewer&page=2&pageSize=50&sort=name&order=desc");
    await screen.findByText("No users match these filters.");
    expect(listCalls(calls)[0]).toBe("/api/users?limit=50&offset=50&sort=name&order=desc&group=reviewer");
    expect(screen.getByRole("combobox", { name: "Access group" }).textContent).toBe("Reviewer");
  });

  it("says so when the list cannot be loaded, and tries again on request", async () => {
    let fail = true;
    const service = fakeUserService();
    startUsersScreen("/users", {
      ...service.routes,
      "GET /api/users": (request) =>
        fail
          ? errorEnvelope(500, "internal", "Internal Server Error")
          : (service.routes["GET /api/users"] as Handler)(request),
    });
    expect(await screen.findByText(/The users could not be loaded/)).toBeInstanceOf(HTMLElement);
    fail = false;
    await userEvent.setup().click(screen.getByRole("button", { name: "Try again" }));
    expect(await screen.findByRole("rowheader", { name: "ada" })).toBeInstanceOf(HTMLElement);
  });

  it("creates a user: validates as you type, shows the server's field message, then says the password was emailed", async () => {
    startUsersScreen();
    await screen.findByRole("rowheader", { name: "ada" });
    const user = userEvent.setup();
    await user.click(screen.getByRole("button", { name: "New user" }));
    const dialog = await screen.findByRole("dialog", { name: "New user" });
    const field = (name: RegExp) => within(dialog).getByRole("textbox", { name });

    // Every message names its field, in the contract's words (never the schema library's own).
    await user.type(field(/^Email/), "not-an-email");
    expect(within(dialog).getByText("Email must be an email address")).toBeInstanceOf(HTMLElement);
    await user.clear(field(/^Email/));
    await user.type(field(/^Email/), "dana@example.org");
    expect(within(dialog).queryByText(/must be an email address/)).toBeNull();
    await user.type(field(/^Full name/), "D");
    await user.clear(field(/^Full name/));
    expect(within(dialog).getByText("Full name is required")).toBeInstanceOf(HTMLElement);
    await user.click(field(/^Full name/));
    await user.paste("D".repeat(201));
    expect(within(dialog).getByText("Full name must be at most 200 characters")).toBeInstanceOf(HTMLElement);
    await user.clear(field(/^Full name/));
    await user.type(field(/^Phone/), "555");
    expect(within(dialog).getByText(/^Phone must be a phone number in international form/)).toBeInstanceOf(HTMLElement);
    await user.clear(field(/^Phone/));

    await user.type(field(/^Username/), "ada");
    await user.type(field(/^Full name/), "Dana Doe");
    await user.click(within(dialog).getByRole("checkbox", { name: /^Technologist/ }));
    await user.click(within(dialog).getByRole("button", { name: "Create user" }));
    expect(await within(dialog).findByText("A user named ada already exists.")).toBeInstanceOf(HTMLElement);

    await user.clear(field(/^Username/));
    expect(within(dialog).queryByText("A user named ada already exists.")).toBeNull();
    await user.type(field(/^Username/), "dana");
    await user.click(within(dialog).getByRole("button", { name: "Create user" }));
    expect(await within(dialog).findByText("dana was created.")).toBeInstanceOf(HTMLElement);
    expect(within(dialog).getByText(/A temporary password was emailed to/).textContent).toContain("d***a@example.org");
    await user.click(within(dialog).getByRole("button", { name: "Done" }));
    expect(await screen.findByRole("rowheader", { name: "dana" })).toBeInstanceOf(HTMLElement);
  });

  it("disables a user after confirmation, sending the version it showed", async () => {
    const { calls } = startUsersScreen();
    await screen.findByRole("rowheader", { name: "ada" });
    await openAction("ada", "Disable");
    const dialog = await screen.findByRole("dialog", { name: "Disable ada?" });
    expect(within(dialog).getByText(/signed out everywhere at once/)).toBeInstanceOf(HTMLElement);
    await userEvent.setup().click(within(dialog).getByRole("button", { name: "Disable" }));
    expect(await screen.findByText("ada is disabled.")).toBeInstanceOf(HTMLElement);
    await waitFor(() => expect(within(rowOf("ada")).getByText("Disabled")).toBeInstanceOf(HTMLElement));
    expect(calls.some((call) => call.method === "PUT" && call.path === "/api/users/ada/toggle")).toBe(true);
  });

  it("turns on SMS codes for a user with a phone number, after confirmation; not offered without a number", async () => {
    const { calls } = startUsersScreen();
    await screen.findByRole("rowheader", { name: "ada" });
    await openAction("ada", "Turn on SMS codes");
    const dialog = await screen.findByRole("dialog", { name: "Turn on SMS codes for ada?" });
    expect(within(dialog).getByText(/texted to \+15555550142/)).toBeInstanceOf(HTMLElement);
    await userEvent.setup().click(within(dialog).getByRole("button", { name: "Turn on" }));
    expect(await screen.findByText("ada now gets a code by SMS at sign-in.")).toBeInstanceOf(HTMLElement);
    const put = calls.find((call) => call.method === "PUT" && call.path === "/api/users/ada/sms-mfa");
    expect(put).toBeDefined();

    const user = userEvent.setup();
    await user.keyboard("{Escape}");
    await user.click(within(rowOf("cleo")).getByRole("button", { name: "Actions for cleo" }));
    const item = await screen.findByRole("menuitem", { name: "Turn on SMS codes" });
    expect(item.getAttribute("aria-disabled")).toBe("true");
  });

  it("edits access groups, and after someone else's change shows the current groups instead of overwriting", async () => {
    const service = fakeUserService();
    startUsersScreen("/users", service.routes);
    await screen.findByRole("rowheader", { name: "ada" });
    // Another administrator changes ada after this screen loaded.
    service.bump(service.users[1] as User, { groups: ["technologist", "billing"] });

    await openAction("ada", "Edit access groups");
    const dialog = await screen.findByRole("dialog", { name: "Access groups of ada" });
    const user = userEvent.setup();
    await user.click(within(dialog).getByRole("checkbox", { name: /^Reviewer/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save groups" }));
    expect(await within(dialog).findByText(/ada was changed by someone else/)).toBeInstanceOf(HTMLElement);
    expect((within(dialog).getByRole("checkbox", { name: /^Billing/ }) as HTMLInputElement).checked).toBe(true);
    expect((within(dialog).getByRole("checkbox", { name: /^Reviewer/ }) as HTMLInputElement).checked).toBe(false);

    await user.click(within(dialog).getByRole("checkbox", { name: /^Reviewer/ }));
    await user.click(within(dialog).getByRole("button", { name: "Save groups" }));
    expect(await screen.findByText("Access groups of ada were saved.")).toBeInstanceOf(HTMLElement);
    expect(service.users[1]?.groups).toEqual(["technologist", "billing", "reviewer"].sort(byGroupOrder));
  });

  it("changes a user's contact details: checked as typed, the changed email unverified, a taken one refused on its field", async () => {
    const service = fakeUserService();
    const taken: Handler = async (request) => {
      const body = JSON.parse(await request.text());
      if (body.email === "bert@example.org") {
        const message = "Another user already has this email address.";
        return Response.json(
          {
            enoch: "release-1",
            error: { status: 409, code: "conflict", message, details: { issues: [{ path: "body.email", message }] } },
          },
          { status: 409 },
        );
      }
      return (service.routes["PUT /api/users/ada/contact"] as Handler)({
        ...request,
        text: async () => JSON.stringify(body),
      });
    };
    const { calls } = startUsersScreen("/users", { ...service.routes, "PUT /api/users/ada/contact": taken });
    await screen.findByRole("rowheader", { name: "ada" });
    await openAction("ada", "Edit contact details");
    const dialog = await screen.findByRole("dialog", { name: "Contact details of ada" });
    const user = userEvent.setup();
    const email = within(dialog).getByRole("textbox", { name: /^Email/ });
    const phone = within(dialog).getByRole("textbox", { name: /^Phone/ });
    expect((phone as HTMLInputElement).value).toBe("+15555550142");

    await user.clear(phone);
    await user.type(phone, "555");
    expect(within(dialog).getByText(/^Phone must be a phone number in international form/)).toBeInstanceOf(HTMLElement);
    await user.clear(phone);
    await user.clear(email);
    await user.type(email, "bert@example.org");
    await user.click(within(dialog).getByRole("button", { name: "Save contact details" }));
    expect(await within(dialog).findByText("Another user already has this email address.")).toBeInstanceOf(HTMLElement);
    expect(email.getAttribute("aria-invalid")).toBe("true");

    await user.clear(email);
    await user.type(email, "ada@new.example");
    await user.click(within(dialog).getByRole("button", { name: "Save contact details" }));
    expect(await screen.findByText("Contact details of ada were saved.")).toBeInstanceOf(HTMLElement);
    expect(service.users[1]).toMatchObject({ email: "ada@new.example", emailVerified: false, phoneNumber: null });
    const put = calls.filter((call) => call.method === "PUT" && call.path === "/api/users/ada/contact");
    expect(put).toHaveLength(2);
  });

  it("resets a password and MFA after confirmation; Reset MFA is off for users without MFA", async () => {
    startUsersScreen();
    await screen.findByRole("rowheader", { name: "ada" });
    const user = userEvent.setup();
    await openAction("bert", "Reset password");
    const dialog = await screen.findByRole("dialog", { name: "Reset the password of bert?" });
    await user.click(within(dialog).getByRole("button", { name: "Reset password" }));
    expect(await screen.findByText("bert must reset their password at next sign-in.")).toBeInstanceOf(HTMLElement);

    await user.click(within(rowOf("bert")).getByRole("button", { name: "Actions for bert" }));
    expect((await screen.findByRole("menuitem", { name: "Reset MFA" })).getAttribute("aria-disabled")).toBe("true");
    await user.keyboard("{Escape}");

    await openAction("ada", "Reset MFA");
    const mfaDialog = await screen.findByRole("dialog", { name: "Reset MFA of ada?" });
    await user.click(within(mfaDialog).getByRole("button", { name: "Reset MFA" }));
    expect(await screen.findByText("MFA of ada was reset.")).toBeInstanceOf(HTMLElement);
    await waitFor(() => expect(within(rowOf("ada")).getByText("Off")).toBeInstanceOf(HTMLElement));
  });
});

const groupOrder = ["admin", "coordinator", "technologist", "reviewer", "billing", "developer"];
function byGroupOrder(left: string, right: string): number {
  return groupOrder.indexOf(left) - groupOrder.indexOf(right);
}
