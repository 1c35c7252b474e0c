import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { type Database, queryRows } from "../db/client.js";
import { type NotificationListener, startNotificationListener } from "../events/notification-listener.js";
import { openTestDatabase } from "../testing/test-app.js";
import { connectSessionCache, type LiveSession } from "./session-cache.js";
import {
  notifySessionChange,
  parseSessionChange,
  type SessionChange,
  sessionChangesChannel,
} from "./session-changes.js";
import {
  findLiveSessionUser,
  insertAuthSession,
  revokeAuthSession,
  revokeUserSessions,
} from "./sessions-repository.js";
import { createUser } from "./user-directory.js";
import { findUserByUsername, updateUser } from "./users-repository.js";

/**
 * The session cache kept current by the database (PGlite; PostgreSQL with DATABASE_URL): which writes notify, that a
 * notification exists only once its transaction commits, and what the cache does with notifications and with the
 * loss of its listening connection.
 */
const postgresUrl = loadConfig().databaseUrl;
const quiet = { warn: () => {}, info: () => {} };
let database: Database;
let drop: () => Promise<void>;
let listener: NotificationListener;
const heard: SessionChange[] = [];

beforeAll(async () => {
  ({ database, drop } = await openTestDatabase());
  listener = await startNotificationListener(database, [sessionChangesChannel], quiet, { firstRetryMs: 50 });
  listener.onNotify(sessionChangesChannel, (payload) => {
    const change = parseSessionChange(payload);
    if (change) heard.push(change);
  });
});
afterAll(async () => {
  await listener.close();
  await drop();
});

async function until<T>(read: () => T | undefined, timeoutMs = 5000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** What was heard from here on: notifications are delivered after the commit, on PostgreSQL a moment later. */
function heardFrom() {
  const from = heard.length;
  return {
    settled: async () => {
      // A marker sent after the writes arrives after their notifications (one channel, commit order).
      const marker = randomUUID();
      await database.db.execute(
        sql`select pg_notify(${sessionChangesChannel}, ${JSON.stringify({ sub: marker, nonce: marker })})`,
      );
      await until(() => heard.slice(from).some((change) => change.sub === marker));
      return heard.slice(from).filter((change) => change.sub !== marker);
    },
  };
}

async function userWithSessions(username: string, count: number) {
  await createUser(
    database.db,
    { username, email: `${username}@vigil.test`, name: username, groups: ["coordinator"], password: randomUUID() },
    { username: "test" },
  );
  const user = await findUserByUsername(database.db, username);
  if (!user) throw new Error(`no user ${username}`);
  const sessions = [];
  for (let index = 0; index < count; index += 1) {
    sessions.push(
      await insertAuthSession(database.db, {
        userSub: user.sub,
        clientId: "test-client",
        refreshTokenHash: randomUUID(),
        authTime: new Date(),
        expiresAt: new Date(Date.now() + 3_600_000),
      }),
    );
  }
  return { sub: user.sub, jtis: sessions.map((session) => session.originJti) };
}

describe("session change notifications", () => {
  it("are heard once their transaction commits, and never for one rolled back", async () => {
    const probe = heardFrom();
    await database.db
      .transaction(async (tx) => {
        await notifySessionChange(tx, { sub: "rolled-back" });
        throw new Error("roll back");
      })
      .catch(() => undefined);
    await database.db.transaction((tx) => notifySessionChange(tx, { sub: "committed" }));
    expect((await probe.settled()).map((change) => change.sub)).toEqual(["committed"]);
  });

  it("are sent by every write the session check reads, in that write's transaction, and by no other", async () => {
    const { sub, jtis } = await userWithSessions("notified", 3);
    const [first] = jtis as [string];
    const probe = heardFrom();
    expect(await revokeAuthSession(database.db, first, new Date())).toBe(true);
    expect(await revokeAuthSession(database.db, first, new Date()), "already revoked: nothing changes").toBe(false);
    expect(await revokeUserSessions(database.db, sub, new Date(), jtis[1])).toBe(1);
    await updateUser(database.db, sub, { groups: ["billing"] });
    await updateUser(database.db, sub, { enabled: false });
    await updateUser(database.db, sub, { enabled: true });
    await updateUser(database.db, sub, { name: "A new name", emailVerified: true });
    // Inside a caller's transaction that rolls back, the revocation and its notification go together.
    await database.db
      .transaction(async (tx) => {
        await revokeUserSessions(tx, sub, new Date());
        throw new Error("roll back");
      })
      .catch(() => undefined);
    const changes = (await probe.settled()).map(({ nonce, ...rest }) => rest);
    expect(changes).toEqual([{ originJti: first }, { sub }, { sub }, { sub }, { sub }]);
    expect(await findLiveSessionUser(database.db, jtis[1] as string, sub)).toBeDefined();
  });

  it("ignores payloads that name no user and no sign-in", () => {
    expect(parseSessionChange("not json")).toBeUndefined();
    expect(parseSessionChange(JSON.stringify({ nonce: "n" }))).toBeUndefined();
    expect(parseSessionChange(JSON.stringify({ sub: "s" }))).toBeUndefined();
    expect(parseSessionChange(JSON.stringify({ sub: "s", originJti: 4, nonce: "n" }))).toEqual({
      sub: "s",
      nonce: "n",
    });
  });
});

describe("the session cache on the instance's listener", () => {
  const readOf = (jti: string, sub: string) => {
    const read = async (): Promise<LiveSession | undefined> => {
      read.calls += 1;
      return findLiveSessionUser(database.db, jti, sub);
    };
    read.calls = 0;
    return read;
  };

  it("refuses a sign-in revoked by this process at the very next call", async () => {
    const cache = connectSessionCache(listener, quiet);
    const { sub, jtis } = await userWithSessions("revoked-here", 1);
    const jti = jtis[0] as string;
    const read = readOf(jti, sub);
    for (let call = 0; call < 3; call += 1) expect(await cache.liveSession(jti, sub, read)).toBeDefined();
    expect(read.calls).toBe(1);
    await revokeAuthSession(database.db, jti, new Date());
    expect(await cache.liveSession(jti, sub, read)).toBeUndefined();
    cache.close();
  });

  it("drops a user's sign-ins when another instance's change about them is heard", async () => {
    const cache = connectSessionCache(listener, quiet);
    const { sub, jtis } = await userWithSessions("changed-elsewhere", 2);
    const reads = jtis.map((jti) => readOf(jti, sub));
    for (const [index, jti] of jtis.entries()) {
      await cache.liveSession(jti, sub, reads[index] as ReturnType<typeof readOf>);
      await cache.liveSession(jti, sub, reads[index] as ReturnType<typeof readOf>);
    }
    expect(reads.map((read) => read.calls)).toEqual([1, 1]);
    // Sent as another instance would: straight to the channel, so this process holds nothing.
    const probe = heardFrom();
    await database.db.execute(
      sql`select pg_notify(${sessionChangesChannel}, ${JSON.stringify({ sub, nonce: "elsewhere" })})`,
    );
    await probe.settled();
    for (const [index, jti] of jtis.entries())
      await cache.liveSession(jti, sub, reads[index] as ReturnType<typeof readOf>);
    expect(reads.map((read) => read.calls)).toEqual([2, 2]);
    cache.close();
  });

  it.skipIf(!postgresUrl)(
    "reads the database on every call from the moment its listening connection is cut until it listens again",
    async () => {
      const cache = connectSessionCache(listener, quiet);
      const { sub, jtis } = await userWithSessions("listener-cut", 1);
      const jti = jtis[0] as string;
      const read = readOf(jti, sub);
      await cache.liveSession(jti, sub, read);
      await cache.liveSession(jti, sub, read);
      expect(read.calls).toBe(1);

      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      try {
        const [{ name }] = (await queryRows<{ name: string }>(database.db, sql`select current_database() as name`)) as [
          { name: string },
        ];
        const cut = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and query ilike 'listen %'",
          [name],
        );
        expect(cut.rowCount).toBe(1);
      } finally {
        await admin.end();
      }
      await until(() => !listener.isListening());
      await cache.liveSession(jti, sub, read);
      await cache.liveSession(jti, sub, read);
      expect(read.calls, "no entry survives the loss, and none is kept while it lasts").toBe(3);

      await until(() => listener.isListening());
      await cache.liveSession(jti, sub, read);
      await cache.liveSession(jti, sub, read);
      expect(read.calls, "listening again: kept again").toBe(4);
      // And it hears changes again.
      await revokeUserSessions(database.db, sub, new Date());
      expect(await cache.liveSession(jti, sub, read)).toBeUndefined();
      cache.close();
    },
    20_000,
  );
});
