import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityClient } from "../testing/identity-helpers.js";
import { createTestApp, type TestApp, testClientId } from "../testing/test-app.js";
import { IdentityKit } from "./identity-kit.js";
import { PasswordResetOperations } from "./password-reset.js";
import { TokenService } from "./token-service.js";
import { createUser } from "./user-directory.js";

/**
 * ForgotPassword must not tell who has an account: not by the masked destination it answers, not by how long it
 * takes. Timing is checked structurally (the same SQL statements, in the same order, on both paths) rather than with
 * a stopwatch, which on a shared CI machine would be either flaky or too loose to mean anything.
 */
let harness: TestApp;

const domains = ["clinic-a.example", "hospital-b.example"];

beforeAll(async () => {
  harness = await createTestApp({ RESET_CODE_REQUESTS_PER_HOUR: "1000", IDENTITY_REQUESTS_PER_IP: "100000" });
  // Half the users' addresses are their username; the others' are not (first.last), at another domain.
  const people = ["avery", "blake", "casey", "devon", "emery", "finley", "gray", "harper", "indigo", "jules"];
  for (const [index, username] of people.entries()) {
    const email = index % 2 === 0 ? `${username}@${domains[0]}` : `pat.${username}son@${domains[1]}`;
    await createUser(
      harness.database.db,
      { username, email, name: username, groups: ["reviewer"], password: `${username}-long-password` },
      { username: "test" },
    );
  }
});
afterAll(() => harness.close());

const forgot = async (username: string): Promise<string> => {
  const response = await harness.cognito("ForgotPassword", { ClientId: testClientId, Username: username });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().CodeDeliveryDetails.Destination;
};

/** A masked email as spec §9 shows it: the first and last character of the local part, then the domain. */
const maskedShape = new RegExp(`^[^*@]\\*\\*\\*[^*@]?@(${domains.map((d) => d.replace(".", "\\.")).join("|")})$`);

describe("ForgotPassword for a name with no account", () => {
  it("answers a masked address shaped like the real users', at their domains, not name@most-common-domain", async () => {
    const real = await Promise.all(["avery", "blake", "casey"].map(forgot));
    for (const destination of real) expect(destination).toMatch(maskedShape);

    const unknown = [];
    for (let index = 0; index < 40; index += 1) unknown.push(await forgot(`visitor${index}q`));
    for (const destination of unknown) expect(destination).toMatch(maskedShape);
    // Drawn from the real population: both domains appear, and so do addresses unrelated to the name asked.
    const seenDomains = new Set(unknown.map((destination) => destination.split("@")[1]));
    expect(seenDomains).toEqual(new Set(domains));
    expect(unknown.some((destination) => destination.startsWith("v***q@"))).toBe(true);
    expect(unknown.some((destination) => !destination.startsWith("v***q@"))).toBe(true);
  });

  it("answers the same name the same way every time, in any case, and on another instance", async () => {
    const first = await forgot("someone-unknown");
    expect(await forgot("someone-unknown")).toBe(first);
    expect(await forgot("Someone-Unknown")).toBe(first);

    // A second server on the same database (a restart, or another instance behind the load balancer).
    const db = harness.database.db;
    const other = new PasswordResetOperations(
      new IdentityKit(db, harness.config, new TokenService(db, harness.config), harness.app.messages),
    );
    const answer = await other.forgotPassword(
      { ClientId: testClientId, Username: "someone-unknown" },
      { ip: "10.9.9.9" },
    );
    expect(answer.CodeDeliveryDetails.Destination).toBe(first);
  });

  it("does the same database work for a real user as for an unknown or disabled one, and sends only the real code", async () => {
    const client = identityClient(harness);
    // Drizzle's query logger sees every statement, in transactions too.
    const session = (harness.database.db as unknown as { session: { logger: unknown; options: { logger?: unknown } } })
      .session;
    const statements: string[] = [];
    const recorder = { logQuery: (query: string) => statements.push(query.replace(/\s+/g, " ").trim()) };
    const previous = { logger: session.logger, options: session.options.logger };
    const record = async (username: string) => {
      statements.length = 0;
      session.logger = recorder;
      session.options.logger = recorder;
      try {
        await forgot(username);
      } finally {
        session.logger = previous.logger;
        session.options.logger = previous.options;
      }
      return [...statements];
    };
    await forgot("warm-up-name"); // the decoy's population and key are read once, then cached

    const before = await client.outboxCount("emery@clinic-a.example");
    const real = await record("emery");
    const unknown = await record("nobody-by-this-name");
    await client.setUser("finley", { enabled: false });
    const disabled = await record("finley");
    expect(real.length).toBeGreaterThanOrEqual(6);
    expect(unknown).toEqual(real);
    expect(disabled).toEqual(real);
    expect(real.some((statement) => statement.startsWith('insert into "outbox"'))).toBe(true);
    expect(await client.outboxCount("emery@clinic-a.example")).toBe(before + 1);
    expect(await client.outboxCount("nobody-by-this-name")).toBe(0);
  });
});
