import { randomUUID } from "node:crypto";
import type { AccessGroup } from "@vigil/contract";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { openDatabase } from "../db/client.js";
import { compareConcurrentPeaks } from "../db/concurrent-peaks.js";
import { createUser } from "../identity/user-directory.js";
import { sampleCase } from "../testing/kits/cases-kit.js";
import { sampleClient, sampleProtocol } from "../testing/kits/clients-kit.js";
import { sampleTimeLog } from "../testing/kits/records-kit.js";
import { type HttpAnswer, killAllServers, type ServerProcess, sleep, startServer } from "../testing/server-process.js";
import { testClientId } from "../testing/test-app.js";

/**
 * Two server processes on one PostgreSQL database, the way Vigil scales out behind a load balancer: whatever one
 * instance decides about identity (a revoked sign-in, a disabled user, failed passwords, an address's request
 * budget) binds the other at once, because it lives in the database and not in a process; and edits of one client
 * sent to both at the same moment, each naming the version it read, lose nothing. Both instances share one
 * PUBLIC_URL (the address users reach, hence the tokens' issuer) and trust the test as their proxy, so each test
 * speaks from its own client address (X-Forwarded-For) and the per-address budget of one never runs into another's.
 *
 * PGlite admits one process per data folder (db/folder-lock.ts), so this needs DATABASE_URL; it creates a database
 * of its own there and drops it afterwards.
 */
const postgresUrl = loadConfig().databaseUrl;
const base = "/api/continuous-monitoring";
const requestsPerIp = 10;
const password = (username: string) => `pw-${username}-${randomUUID()}`;
const users: Record<string, { groups: AccessGroup[]; password: string }> = Object.fromEntries(
  (
    [
      ["ti-admin", ["admin"]],
      ["ti-signout", ["coordinator"]],
      ["ti-revoke", ["coordinator"]],
      ["ti-disabled", ["coordinator"]],
      ["ti-locked", ["coordinator"]],
      ["ti-rotation", ["coordinator"]],
      ["ti-warm", ["coordinator"]],
      ["ti-cut", ["coordinator"]],
      ["ti-tech", ["technologist"]],
    ] as const
  ).map(([username, groups]) => [username, { groups: [...groups], password: password(username) }]),
);
const passwordOf = (username: string) => (users[username] as { password: string }).password;

let databaseName: string;
let databaseUrl: string;
let a: ServerProcess;
let b: ServerProcess;
let addressCounter = 0;
/** A client address of its own (TEST-NET-3), so each use starts with a full request budget. */
const newAddress = () => {
  addressCounter += 1;
  return { "x-forwarded-for": `203.0.113.${addressCounter}` };
};

async function adminQuery<T extends pg.QueryResultRow>(url: string, statement: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<T>(statement, values)).rows;
  } finally {
    await client.end();
  }
}

function instanceEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    PUBLIC_URL: "http://vigil.test",
    TRUST_PROXY: "127.0.0.1",
    IDENTITY_REQUESTS_PER_IP: String(requestsPerIp),
    // Windows are aligned to the epoch: an hour-long one is crossed mid-test only near the top of an hour, which
    // the throttling test waits out.
    IDENTITY_IP_WINDOW_SECONDS: "3600",
    ...extra,
  };
}

const cognitoError = (answer: HttpAnswer) => ({ status: answer.status, ...answer.json() });

/** A refresh with `refreshToken` on `server`, as the web app's Amplify makes one. */
const refreshOn = (server: ServerProcess, refreshToken: string) =>
  server.cognito(
    "InitiateAuth",
    { AuthFlow: "REFRESH_TOKEN_AUTH", ClientId: testClientId, AuthParameters: { REFRESH_TOKEN: refreshToken } },
    newAddress(),
  );

describe.skipIf(!postgresUrl)(
  "two server processes on one PostgreSQL database (skipped without DATABASE_URL: PGlite serves one process)",
  () => {
    beforeAll(async () => {
      const url = postgresUrl as string;
      databaseName = `vigil_two_${process.pid}_${randomUUID().slice(0, 8)}`;
      await adminQuery(url, `create database ${databaseName}`);
      const target = new URL(url);
      target.pathname = `/${databaseName}`;
      databaseUrl = target.toString();
      const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 2 });
      try {
        for (const [username, { groups, password }] of Object.entries(users)) {
          await createUser(
            database.db,
            { username, email: `${username}@vigil.test`, name: username, groups, password },
            { username: "test" },
          );
        }
      } finally {
        await database.close();
      }
      // One after the other, so the second finds the first's signing key (see the rotation test for why it matters).
      a = await startServer({ label: "instance A", env: instanceEnv(), readyTimeoutMs: 180_000 });
      b = await startServer({ label: "instance B", env: instanceEnv(), readyTimeoutMs: 180_000 });
    }, 420_000);

    afterAll(async () => {
      await killAllServers();
      if (databaseName) {
        await adminQuery(postgresUrl as string, `drop database if exists ${databaseName} with (force)`);
      }
    });

    const listClients = (server: ServerProcess, token: string) => server.request("GET", `${base}/clients`, { token });
    /**
     * B's answers to `token` from A's answer on, until one is `expected` (or `withinMs` pass). A answers a change
     * only once its own notification came back (identity/session-change-echoes.ts), and PostgreSQL signals both
     * listening connections at that commit, so B has been sent it too; on a loaded machine B's listener may take a
     * few milliseconds more to be scheduled. A B answering from memory until the entry's 30 s TTL fails this.
     */
    const answerSoon = async (server: ServerProcess, token: string, expected: number, withinMs = 250) => {
      const started = Date.now();
      for (;;) {
        const { status } = await listClients(server, token);
        if (status === expected || Date.now() - started > withinMs) return status;
        await sleep(5);
      }
    };

    describe("revocation", () => {
      it("ends a sign-in on the other instance at once after GlobalSignOut on one", async () => {
        const tokens = await a.signIn("ti-signout", passwordOf("ti-signout"), newAddress());
        expect((await listClients(b, tokens.idToken)).status, "a token from A works on B").toBe(200);

        const signOut = await a.cognito("GlobalSignOut", { AccessToken: tokens.accessToken }, newAddress());
        expect(signOut.status, signOut.body).toBe(200);

        expect(await answerSoon(b, tokens.idToken, 401)).toBe(401);
        const getUser = await b.cognito("GetUser", { AccessToken: tokens.accessToken }, newAddress());
        expect(cognitoError(getUser)).toEqual({
          status: 400,
          __type: "NotAuthorizedException",
          message: "Access Token has been revoked",
        });
        const refresh = await refreshOn(b, tokens.refreshToken);
        expect(cognitoError(refresh)).toEqual({
          status: 400,
          __type: "NotAuthorizedException",
          message: "Refresh Token has been revoked",
        });
      });

      it("ends a sign-in on the other instance at once after RevokeToken on one", async () => {
        const tokens = await b.signIn("ti-revoke", passwordOf("ti-revoke"), newAddress());
        expect((await listClients(a, tokens.idToken)).status, "a token from B works on A").toBe(200);

        const revoke = await b.cognito(
          "RevokeToken",
          { ClientId: testClientId, Token: tokens.refreshToken },
          newAddress(),
        );
        expect(revoke.status, revoke.body).toBe(200);

        expect(await answerSoon(a, tokens.idToken, 401)).toBe(401);
        const refresh = await refreshOn(a, tokens.refreshToken);
        expect(cognitoError(refresh).__type).toBe("NotAuthorizedException");
      });

      it("shuts a user out of the other instance at once when an administrator disables them on one", async () => {
        const admin = await a.signIn("ti-admin", passwordOf("ti-admin"), newAddress());
        const victim = await b.signIn("ti-disabled", passwordOf("ti-disabled"), newAddress());
        expect((await listClients(b, victim.idToken)).status).toBe(200);

        const user = await a.request("GET", "/api/users/ti-disabled", { token: admin.idToken });
        expect(user.status, user.body).toBe(200);
        const disabled = await a.request("PUT", "/api/users/ti-disabled/toggle", {
          token: admin.idToken,
          ifMatch: `"${user.json().data.updatedAt}"`,
          body: { isEnabled: false },
        });
        expect(disabled.status, disabled.body).toBe(200);

        expect(await answerSoon(b, victim.idToken, 401)).toBe(401);
        // And no new sign-in on either: the same answer as a wrong password (the audit log keeps the reason).
        for (const server of [b, a]) {
          const again = await server.cognito(
            "InitiateAuth",
            {
              AuthFlow: "USER_PASSWORD_AUTH",
              ClientId: testClientId,
              AuthParameters: { USERNAME: "ti-disabled", PASSWORD: passwordOf("ti-disabled") },
            },
            newAddress(),
          );
          expect(cognitoError(again), server.label).toEqual({
            status: 400,
            __type: "NotAuthorizedException",
            message: "Incorrect username or password.",
          });
        }
      });
    });

    describe("the session check answered from memory (identity/session-cache.ts)", () => {
      /** Calls enough for B to answer from memory (its first call reads the database, the rest need not). */
      const warm = async (server: ServerProcess, token: string) => {
        for (let index = 0; index < 5; index += 1) {
          const answer = await listClients(server, token);
          expect(answer.status, `warming ${server.label}: ${answer.body}`).toBe(200);
        }
      };
      const groupsOf = async (token: string, username: string, groups: AccessGroup[]) => {
        const user = await a.request("GET", `/api/users/${username}`, { token });
        const changed = await a.request("PUT", `/api/users/${username}/access-groups`, {
          token,
          ifMatch: `"${user.json().data.updatedAt}"`,
          body: { groups },
        });
        expect(changed.status, changed.body).toBe(200);
      };
      /** The backends LISTENing for the instances (one each), as an operator would find them. */
      const listeners = async () =>
        (
          await adminQuery<{ pid: number }>(
            postgresUrl as string,
            "select pid from pg_stat_activity where datname = $1 and query ilike 'listen %'",
            [databaseName],
          )
        ).map((row) => row.pid);

      it("refuses on B a sign-in B was answering from memory as soon as A has answered its revocation", async () => {
        const tokens = await a.signIn("ti-warm", passwordOf("ti-warm"), newAddress());
        const other = await a.signIn("ti-warm", passwordOf("ti-warm"), newAddress());
        await warm(b, tokens.idToken);
        await warm(b, other.idToken);
        const revoke = await a.cognito(
          "RevokeToken",
          { ClientId: testClientId, Token: tokens.refreshToken },
          newAddress(),
        );
        expect(revoke.status, revoke.body).toBe(200);
        expect(await answerSoon(b, tokens.idToken, 401)).toBe(401);
        expect((await listClients(b, other.idToken)).status, "the user's other sign-in stays live on B").toBe(200);
      });

      it("applies on B a group change made on A as soon as A has answered it, both ways", async () => {
        const admin = (await a.signIn("ti-admin", passwordOf("ti-admin"), newAddress())).idToken;
        const { idToken } = await b.signIn("ti-warm", passwordOf("ti-warm"), newAddress());
        await warm(b, idToken);
        await groupsOf(admin, "ti-warm", ["developer"]);
        expect(await answerSoon(b, idToken, 403), "clients:read taken away").toBe(403);
        await groupsOf(admin, "ti-warm", ["coordinator"]);
        expect(await answerSoon(b, idToken, 200), "and given back").toBe(200);
      });

      it("reads the database while its listener is cut, so a revocation B could not hear is refused all the same", async () => {
        const tokens = await a.signIn("ti-cut", passwordOf("ti-cut"), newAddress());
        await warm(b, tokens.idToken);
        const before = await listeners();
        expect(before, "one listening connection per instance").toHaveLength(2);
        // A restart or failover of the database looks the same to the instances.
        await adminQuery(postgresUrl as string, "select pg_terminate_backend(pid) from unnest($1::int[]) as pid", [
          before,
        ]);
        for (let waited = 0; (await listeners()).some((pid) => before.includes(pid)); waited += 1) {
          expect(waited, "the listening backends ended").toBeLessThan(100);
          await sleep(20);
        }
        const revoke = await a.cognito(
          "RevokeToken",
          { ClientId: testClientId, Token: tokens.refreshToken },
          newAddress(),
        );
        expect(revoke.status, revoke.body).toBe(200);
        expect((await listClients(b, tokens.idToken)).status).toBe(401);

        // Listening again (1 s back-off), B answers from memory again and hears revocations again.
        for (let waited = 0; (await listeners()).length < 2; waited += 1) {
          expect(waited, "both instances listen again").toBeLessThan(250);
          await sleep(20);
        }
        const again = await a.signIn("ti-cut", passwordOf("ti-cut"), newAddress());
        await warm(b, again.idToken);
        const second = await a.cognito(
          "RevokeToken",
          { ClientId: testClientId, Token: again.refreshToken },
          newAddress(),
        );
        expect(second.status, second.body).toBe(200);
        expect(await answerSoon(b, again.idToken, 401)).toBe(401);
      }, 30_000);
    });

    it("counts failed passwords alternated between the instances towards one lockout", async () => {
      // identity/sign-in-failures-repository.ts: the 5th failure locks the name for 1 s, each further one doubles
      // that. Failures go on, alternating, until 8 are counted (a lock of 8 s, ample for the check that follows);
      // attempts made while the name is locked are refused without counting. Each attempt comes from an address of
      // its own: the lockout is per name, whatever the address, and the per-address budget stays out of the way.
      const attempt = (server: ServerProcess, secret: string) =>
        server.cognito(
          "InitiateAuth",
          {
            AuthFlow: "USER_PASSWORD_AUTH",
            ClientId: testClientId,
            AuthParameters: { USERNAME: "ti-locked", PASSWORD: secret },
          },
          newAddress(),
        );
      const counted = new Map<ServerProcess, number>([
        [a, 0],
        [b, 0],
      ]);
      const total = () => (counted.get(a) ?? 0) + (counted.get(b) ?? 0);
      const answers: string[] = [];
      let countedAtFirstRefusal: { a: number; b: number } | undefined;
      for (let index = 0; total() < 8; index += 1) {
        expect(index, `attempts so far: ${answers.join(", ")}`).toBeLessThan(200);
        const server = index % 2 === 0 ? a : b;
        const answer = cognitoError(await attempt(server, "not-the-password"));
        expect(answer.__type, JSON.stringify(answer)).toBe("NotAuthorizedException");
        answers.push(`${server.label}: ${answer.message}`);
        if (answer.message === "Incorrect username or password.") {
          counted.set(server, (counted.get(server) ?? 0) + 1);
        } else {
          expect(answer.message).toBe("Password attempts exceeded");
          countedAtFirstRefusal ??= { a: counted.get(a) ?? 0, b: counted.get(b) ?? 0 };
          await sleep(250);
        }
      }
      // Nothing was locked before 5 failures in all, and the lock came while neither instance had seen 5 alone.
      expect(answers.slice(0, 5), `${answers}`).toEqual(
        [a, b, a, b, a].map((server) => `${server.label}: Incorrect username or password.`),
      );
      expect(countedAtFirstRefusal, `${answers}`).toBeDefined();
      const atLock = countedAtFirstRefusal as { a: number; b: number };
      expect(atLock.a + atLock.b).toBeGreaterThanOrEqual(5);
      expect(Math.max(atLock.a, atLock.b)).toBeLessThan(5);

      // The right password is refused on both while the name is locked.
      for (const server of [a, b]) {
        expect(cognitoError(await attempt(server, passwordOf("ti-locked"))), server.label).toEqual({
          status: 400,
          __type: "NotAuthorizedException",
          message: "Password attempts exceeded",
        });
      }
      const [row] = await adminQuery<{ failures: number }>(
        databaseUrl,
        "select failures from sign_in_failures where username_key = 'ti-locked'",
      );
      expect(row?.failures).toBe(8);
    }, 120_000);

    it(`shares the per-address budget of ${requestsPerIp} identity requests between the instances`, async () => {
      // The budget is a fixed hour-long window aligned to the epoch; a run that would straddle its end waits for it.
      const untilNextWindow = 3_600_000 - (Date.now() % 3_600_000);
      if (untilNextWindow < 60_000) await sleep(untilNextWindow + 1_000);
      const address = newAddress();
      // Distinct unknown names, so no lockout is involved: every allowed call is an ordinary refusal.
      const call = (server: ServerProcess, index: number) =>
        server.cognito(
          "InitiateAuth",
          {
            AuthFlow: "USER_PASSWORD_AUTH",
            ClientId: testClientId,
            AuthParameters: { USERNAME: `nobody-${index}`, PASSWORD: "not-a-password" },
          },
          address,
        );
      for (let index = 0; index < requestsPerIp; index += 1) {
        const answer = await call(index % 2 === 0 ? a : b, index);
        expect(cognitoError(answer).__type, `request ${index + 1}: ${answer.body}`).toBe("NotAuthorizedException");
      }
      // Each instance has seen only half the budget; together they have spent it.
      for (const [offset, server] of [a, b].entries()) {
        const refused = await call(server, requestsPerIp + offset);
        expect(cognitoError(refused), server.label).toEqual({
          status: 400,
          __type: "TooManyRequestsException",
          message: "Too many requests, please try again later.",
        });
        expect(Number(refused.headers["retry-after"])).toBeGreaterThanOrEqual(1);
      }
      // Another address still has its own budget, on both.
      const elsewhere = newAddress();
      for (const server of [a, b]) {
        const answer = await server.cognito(
          "InitiateAuth",
          {
            AuthFlow: "USER_PASSWORD_AUTH",
            ClientId: testClientId,
            AuthParameters: { USERNAME: "nobody", PASSWORD: "not-a-password" },
          },
          elsewhere,
        );
        expect(cognitoError(answer).__type, server.label).toBe("NotAuthorizedException");
      }
    }, 180_000);

    describe("concurrent edits of one client sent to both instances", () => {
      let token: string;
      let client: { id: string; name: string; code: string; timezone: string };
      const bursts = 6;
      const writersPerBurst = 16;
      const chainWriters = 12;
      /** Every 2xx answer: the version it created and the notes it wrote. */
      const applied = new Map<number, string>();

      const read = async (server: ServerProcess) => {
        const answer = await server.request("GET", `${base}/clients/${client.id}`, { token });
        expect(answer.status, answer.body).toBe(200);
        return answer.json().data as { version: number; notes: string | null };
      };
      const write = (server: ServerProcess, version: number, notes: string) =>
        server.request("PUT", `${base}/clients/${client.id}`, {
          token,
          ifMatch: `"${version}"`,
          body: sampleClient({ name: client.name, code: client.code, timezone: client.timezone, notes }),
        });
      const expectRefused = (answer: HttpAnswer) => expect([409, 412], answer.body).toContain(answer.status);

      beforeAll(async () => {
        token = (await a.signIn("ti-admin", passwordOf("ti-admin"), newAddress())).idToken;
        const created = await b.request("POST", `${base}/clients`, {
          token,
          body: sampleClient({ name: "Contended", code: "CONTENDED" }),
        });
        expect(created.status, created.body).toBe(201);
        client = created.json().data;
      });

      it(`applies exactly one of ${writersPerBurst} writers naming the same version, split over both, ${bursts} times over`, async () => {
        for (let burst = 0; burst < bursts; burst += 1) {
          const { version } = await read(burst % 2 === 0 ? a : b);
          const tags = Array.from({ length: writersPerBurst }, (_, index) => `burst ${burst}, writer ${index}`);
          const answers = await Promise.all(tags.map((tag, index) => write(index % 2 === 0 ? a : b, version, tag)));
          const winners = answers.flatMap((answer, index) => (answer.status === 200 ? [index] : []));
          expect(winners, `burst ${burst}: ${answers.map((answer) => answer.status)}`).toHaveLength(1);
          const winner = winners[0] as number;
          expect((answers[winner] as HttpAnswer).json().data.version).toBe(version + 1);
          applied.set(version + 1, tags[winner] as string);
          for (const [index, answer] of answers.entries()) if (index !== winner) expectRefused(answer);
          // Both instances read the winner's state.
          for (const server of [a, b])
            expect(await read(server)).toMatchObject({ version: version + 1, notes: tags[winner] });
        }
      }, 180_000);

      it(`applies each of ${chainWriters} writers retrying on either instance exactly once, none lost`, async () => {
        const start = await read(a);
        await Promise.all(
          Array.from({ length: chainWriters }, async (_, index) => {
            const notes = `chain writer ${index}`;
            for (let attempt = 0; attempt <= chainWriters * 4; attempt += 1) {
              // Read on one instance, write on the other: what one wrote, the other must see.
              const [reader, writer] = (index + attempt) % 2 === 0 ? [a, b] : [b, a];
              const { version } = await read(reader);
              const answer = await write(writer, version, notes);
              if (answer.status === 200) {
                const created = answer.json().data.version;
                expect(created, notes).toBe(version + 1);
                expect(applied.has(created), `version ${created} handed out twice`).toBe(false);
                applied.set(created, notes);
                return;
              }
              expectRefused(answer);
            }
            throw new Error(`${notes} was never applied`);
          }),
        );
        const end = await read(b);
        expect(end.version).toBe(start.version + chainWriters);
        expect(end.notes).toBe(applied.get(end.version));

        // The audit trail (written in each change's transaction) holds exactly the applied edits, each replacing the
        // one before it: no update landed on a version it had not read.
        const events: {
          details: { version: number; changes: { notes?: { from: string | null; to: string | null } } };
        }[] = [];
        for (;;) {
          const page = await a.request(
            "GET",
            `/api/audit?action=client.update&targetId=${client.id}&limit=200&offset=${events.length}`,
            { token },
          );
          expect(page.status, page.body).toBe(200);
          events.push(...page.json().data.items);
          if (events.length >= page.json().data.total) break;
        }
        const history = events.map((event) => event.details).sort((x, y) => x.version - y.version);
        expect(history.map((entry) => entry.version)).toEqual([...applied.keys()].sort((x, y) => x - y));
        let previous: string | null = null;
        for (const entry of history) {
          expect(entry.changes.notes?.to, `version ${entry.version}`).toBe(applied.get(entry.version));
          expect(entry.changes.notes?.from ?? null, `what version ${entry.version} replaced`).toBe(previous);
          previous = entry.changes.notes?.to ?? null;
        }
      }, 180_000);
    });

    it("keeps every time log's concurrent-patient peak right when one technologist writes on both at once", async () => {
      // The peaks are kept on write under a per-technologist advisory lock (db/concurrent-peaks.ts): without it, two
      // logs written at the same moment on two instances would each count the other's old state.
      const admin = (await a.signIn("ti-admin", passwordOf("ti-admin"), newAddress())).idToken;
      const technologist = (await b.signIn("ti-tech", passwordOf("ti-tech"), newAddress())).idToken;
      const created = await a.request("POST", `${base}/clients`, {
        token: admin,
        body: sampleClient({ name: "Peaks", code: "PEAKS" }),
      });
      expect(created.status, created.body).toBe(201);
      const clientId = created.json().data.id as string;
      const protocol = await a.request("POST", `${base}/clients/${clientId}/protocol/revisions`, {
        token: admin,
        body: sampleProtocol(),
      });
      expect(protocol.status, protocol.body).toBe(201);
      const caseIds: string[] = [];
      for (let index = 0; index < 6; index += 1) {
        const opened = await b.request("POST", `${base}/cases`, { token: admin, body: sampleCase(clientId) });
        expect(opened.status, opened.body).toBe(201);
        caseIds.push(opened.json().data.id);
      }
      // Straight to monitoring with an early recording start: the moves are tested elsewhere.
      await adminQuery(
        databaseUrl,
        "update cases set stage = 'monitoring', recording_started_at = '2026-01-01T00:00:00Z' where id = any($1::uuid[])",
        [caseIds],
      );
      // Each round, six logs an hour apart lasting three hours each: at most three at once.
      const answers = await Promise.all(
        [0, 1, 2, 3].flatMap((round) =>
          caseIds.map((caseId, index) =>
            (index % 2 === 0 ? a : b).request("POST", `${base}/cases/monitoring/${caseId}/time-logs`, {
              token: technologist,
              body: sampleTimeLog({
                startedAt: `2026-02-1${round}T0${index}:00:00.000Z`,
                endedAt: `2026-02-1${round}T0${index + 3}:00:00.000Z`,
              }),
            }),
          ),
        ),
      );
      for (const answer of answers) expect(answer.status, answer.body).toBe(201);
      const database = await openDatabase({ kind: "postgres", url: databaseUrl, poolSize: 1 });
      try {
        expect(await compareConcurrentPeaks(database.db)).toEqual([]);
        const peaks = await adminQuery<{ peak: number }>(
          databaseUrl,
          "select concurrent_peak as peak from case_time_logs where case_id = any($1::uuid[])",
          [caseIds],
        );
        expect(peaks.map((row) => row.peak)).toEqual(answers.map(() => 3));
      } finally {
        await database.close();
      }
    }, 120_000);

    it("signs with the new key on every instance once one of them has rotated it", async () => {
      // Last, since it changes the keys. A key is due after SIGNING_KEY_ROTATION_DAYS; an instance starting then
      // (a restart, a scale-up) retires it and creates the next one. The retired key "signs nothing" (db/schema.ts)
      // and is published only while tokens it signed may live (ID_TOKEN_MINUTES): an instance still signing with it
      // hands out tokens that every verifier rejects once that time has passed.
      const kidOf = (token: string) =>
        JSON.parse(Buffer.from(token.split(".")[0] as string, "base64url").toString("utf8")).kid as string;
      const before = kidOf((await a.signIn("ti-rotation", passwordOf("ti-rotation"), newAddress())).idToken);
      await adminQuery(databaseUrl, "update signing_keys set created_at = created_at - interval '2 days'");
      const third = await startServer({
        label: "instance C",
        env: instanceEnv({ SIGNING_KEY_ROTATION_DAYS: "1" }),
        readyTimeoutMs: 180_000,
      });
      const [active] = await adminQuery<{ kid: string }>(
        databaseUrl,
        "select kid from signing_keys where retired_at is null",
      );
      expect(active?.kid, "instance C rotated the key").not.toBe(before);
      expect(kidOf((await third.signIn("ti-rotation", passwordOf("ti-rotation"), newAddress())).idToken)).toBe(
        active?.kid,
      );
      for (const server of [a, b]) {
        const token = (await server.signIn("ti-rotation", passwordOf("ti-rotation"), newAddress())).idToken;
        expect(kidOf(token), `${server.label} signs with the active key, not the one C retired`).toBe(active?.kid);
        for (const verifier of [a, b, third]) {
          expect((await listClients(verifier, token)).status, `${server.label}'s token on ${verifier.label}`).toBe(200);
        }
      }
    }, 240_000);
  },
);
