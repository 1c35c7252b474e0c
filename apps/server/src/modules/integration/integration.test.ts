import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type IntegrationResult, integrationCheckIds, integrationResultSchema } from "@vigil/contract";
import { isNull, sql } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signingKeys } from "../../db/schema.js";
import { type LocalProvider, startLocalProvider } from "../../identity/federation/testing/local-provider.js";
import { TokenService } from "../../identity/token-service.js";
import { MessageService } from "../../messaging/message-service.js";
import { createTestApp, type TestApp } from "../../testing/test-app.js";
import { runIntegrationCheck } from "./integration-service.js";

/**
 * The self-checks against real peers: the app listening on a real port (PUBLIC_URL points at it, so the JWKS check
 * makes a real HTTP call), a real SMTP server, a real OpenID provider, and a socket that accepts and never answers.
 */

const checksPath = "/api/bugs/integration-checks";

async function listening(server: Server): Promise<number> {
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return (server.address() as AddressInfo).port;
}

/** A port nobody listens on (taken and released at once): connecting to it is refused. */
async function closedPort(): Promise<number> {
  const server = createServer();
  const port = await listening(server);
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A peer that accepts connections and never says a word: no HTTP answer, no SMTP greeting. */
async function startSilentPeer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    connections += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => undefined);
  });
  const port = await listening(server);
  return {
    port,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

async function startSmtpServer(): Promise<{ port: number; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    onConnect(_session, callback) {
      connections += 1;
      callback();
    },
    onData(stream, _session, callback) {
      stream.resume();
      stream.on("end", () => callback());
    },
  });
  server.listen(0, "127.0.0.1");
  await once(server.server, "listening");
  return {
    port: (server.server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

async function run(harness: TestApp, token: string, check: string) {
  return harness.app.inject({
    method: "POST",
    url: `${checksPath}/${check}/run`,
    headers: { authorization: `Bearer ${token}` },
  });
}

async function result(harness: TestApp, token: string, check: string): Promise<IntegrationResult> {
  const response = await run(harness, token, check);
  expect(response.statusCode, response.body).toBe(200);
  return integrationResultSchema.parse(response.json().data);
}

describe("a healthy deployment", () => {
  let harness: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let provider: LocalProvider;
  let dataDir: string;
  let publicUrl: string;
  let developer: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    provider = await startLocalProvider({
      clientId: "vigil-upstream",
      clientSecret: "upstream-secret-for-tests",
      redirectUris: ["https://auth.vigil.test/oauth2/idpresponse"],
      accounts: {},
    });
    dataDir = mkdtempSync(path.join(tmpdir(), "vigil-data-"));
    const port = await closedPort();
    publicUrl = `http://127.0.0.1:${port}`;
    harness = await createTestApp({
      PUBLIC_URL: publicUrl,
      SMTP_URL: `smtp://127.0.0.1:${smtp.port}`,
      DATA_DIR: dataDir,
      OIDC_ISSUER: provider.issuer,
      OIDC_CLIENT_ID: "vigil-upstream",
      OIDC_CLIENT_SECRET: "upstream-secret-for-tests",
      HOSTED_UI_DOMAIN: "auth.vigil.test",
    });
    await harness.app.listen({ port, host: "127.0.0.1" });
    developer = await harness.tokenFor("dev", ["developer"]);
  });
  afterAll(async () => {
    await harness?.close();
    await smtp?.close();
    await provider?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("lists the checks in the contract's order, each with a title and purpose", async () => {
    const response = await harness.app.inject({
      method: "GET",
      url: checksPath,
      headers: { authorization: `Bearer ${developer}` },
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().data.items as { id: string; title: string; purpose: string }[];
    expect(items.map((item) => item.id)).toEqual([...integrationCheckIds]);
    for (const item of items) {
      expect(item.title.length).toBeGreaterThan(3);
      expect(item.purpose.length).toBeGreaterThan(10);
    }
  });

  it("passes every check, run in parallel as the page runs them, against the real peers", async () => {
    const results = await Promise.all(integrationCheckIds.map((id) => result(harness, developer, id)));
    const byId = Object.fromEntries(results.map((entry) => [entry.id, entry])) as Record<string, IntegrationResult>;
    const embedded = harness.database.engine === "pglite";
    expect(Object.fromEntries(results.map((entry) => [entry.id, entry.status]))).toEqual({
      "database-round-trip": "pass",
      "migrations-current": "pass",
      "signing-keys": "pass",
      "token-issuer-jwks": "pass",
      "mail-transport": "pass",
      "clock-skew": "pass",
      "data-folder-disk": embedded ? "pass" : "skipped",
      "oidc-discovery": "pass",
      "finding-deliveries": "pass",
      "job-queue": "pass",
    });
    for (const entry of results) {
      expect(entry.durationMs).toBeLessThan(5000);
      if (entry.status === "pass" && entry.id !== "mail-transport") expect(entry.hint, entry.id).toBeNull();
    }

    expect(byId["database-round-trip"]?.details).toMatchObject({ engine: harness.database.engine });
    expect(byId["database-round-trip"]?.details.serverVersion).toMatch(/^\d+/);
    const migrations = byId["migrations-current"]?.details;
    expect(migrations?.applied).toBe(migrations?.expected);
    expect(migrations?.latestTag).toBe(migrations?.latestAppliedTag);

    // The JWKS check went out over HTTP to the listening app and found the key the app signs with.
    const jwks = byId["token-issuer-jwks"]?.details;
    expect(jwks).toMatchObject({ url: `${publicUrl}/.well-known/jwks.json`, httpStatus: 200 });
    expect(String(jwks?.publishedKids)).toContain(String(jwks?.currentKid));
    expect(byId["signing-keys"]?.details).toMatchObject({ algorithm: "ES256", activeKid: jwks?.currentKid });
    expect(byId["signing-keys"]?.summary).toMatch(/Keys do not expire/);

    expect(byId["mail-transport"]?.summary).toContain(`127.0.0.1:${smtp.port}`);
    expect(smtp.connections()).toBeGreaterThan(0);
    expect(Math.abs(Number(byId["clock-skew"]?.details.skewMs))).toBeLessThan(2000);
    if (embedded) expect(byId["data-folder-disk"]?.details.folder).toBe(dataDir);
    else expect(byId["data-folder-disk"]?.summary).toMatch(/PostgreSQL/);
    expect(byId["oidc-discovery"]?.details).toMatchObject({ issuer: provider.issuer, keyCount: 1 });
  });

  it("fails the signing keys once the active key is overdue for rotation, saying keys rotate at start", async () => {
    const [active] = await harness.database.db.select().from(signingKeys).where(isNull(signingKeys.retiredAt));
    const createdAt = active?.createdAt as Date;
    await harness.database.db
      .update(signingKeys)
      .set({ createdAt: new Date(Date.now() - 40 * 86_400_000) })
      .where(isNull(signingKeys.retiredAt));
    try {
      const overdue = await result(harness, developer, "signing-keys");
      expect(overdue.status).toBe("fail");
      expect(overdue.summary).toMatch(/overdue for rotation/);
      expect(overdue.hint).toMatch(/Restart the server/);
      expect(overdue.details).toMatchObject({ rotationDays: 30, ageDays: 40 });
    } finally {
      await harness.database.db.update(signingKeys).set({ createdAt }).where(isNull(signingKeys.retiredAt));
    }
  });

  it("lets developers and administrators run checks, and no one else", async () => {
    const admin = await harness.tokenFor("boss", ["admin"]);
    const technologist = await harness.tokenFor("tech", ["technologist"]);
    expect((await run(harness, admin, "clock-skew")).statusCode).toBe(200);
    expect((await run(harness, technologist, "clock-skew")).statusCode).toBe(403);
    const list = await harness.app.inject({
      method: "GET",
      url: checksPath,
      headers: { authorization: `Bearer ${technologist}` },
    });
    expect(list.statusCode).toBe(403);
    expect((await harness.app.inject({ method: "POST", url: `${checksPath}/clock-skew/run` })).statusCode).toBe(401);
  });

  it("answers 400 naming the field for an unknown check", async () => {
    const response = await run(harness, developer, "disk-of-doom");
    expect(response.statusCode).toBe(400);
    expect(response.json().error.details.issues[0].path).toBe("params.check");
  });
});

describe("a deployment whose peers are down or silent", () => {
  let harness: TestApp;
  let silent: Awaited<ReturnType<typeof startSilentPeer>>;
  let smtpPort: number;
  let developer: string;

  beforeAll(async () => {
    silent = await startSilentPeer();
    smtpPort = await closedPort();
    harness = await createTestApp({
      // PUBLIC_URL leads to a socket that accepts and never answers; SMTP_URL to a port nobody listens on.
      PUBLIC_URL: `http://127.0.0.1:${silent.port}`,
      SMTP_URL: `smtp://mailer:secret@127.0.0.1:${smtpPort}`,
    });
    developer = await harness.tokenFor("dev", ["developer"]);
  });
  afterAll(async () => {
    await harness?.close();
    await silent?.close();
  });

  it("fails the mail check naming host:port and the refusal, with what to do", async () => {
    const mail = await result(harness, developer, "mail-transport");
    expect(mail.status).toBe("fail");
    expect(mail.summary).toContain(`127.0.0.1:${smtpPort}`);
    expect(mail.summary).toMatch(/ECONNREFUSED/);
    expect(mail.summary).not.toContain("secret");
    expect(mail.hint).toMatch(/Start the SMTP server or fix SMTP_URL/);
    expect(mail.details).toMatchObject({ host: "127.0.0.1", port: smtpPort });
  });

  it("turns a JWKS endpoint that never answers into a fail after the time limit, not a hang or a 500", async () => {
    const started = Date.now();
    const [jwks, clock] = await Promise.all([
      result(harness, developer, "token-issuer-jwks"),
      result(harness, developer, "clock-skew"),
    ]);
    expect(jwks.status).toBe("fail");
    expect(jwks.summary).toBe(
      `Timed out after 5 s waiting for http://127.0.0.1:${silent.port}/.well-known/jwks.json to answer.`,
    );
    expect(jwks.hint).toMatch(/PUBLIC_URL/);
    expect(jwks.durationMs).toBeGreaterThanOrEqual(5000);
    expect(Date.now() - started).toBeLessThan(8000);
    expect(silent.connections()).toBeGreaterThan(0);
    // The other checks do not wait for it.
    expect(clock.status).toBe("pass");
    expect(clock.durationMs).toBeLessThan(1000);
  });

  it("turns an SMTP server that never greets into a fail within the time limit", async () => {
    const config = {
      ...harness.config,
      messaging: { ...harness.config.messaging, smtpUrl: `smtp://127.0.0.1:${silent.port}` },
    };
    const db = harness.database.db;
    const context = {
      database: harness.database,
      config,
      tokens: new TokenService(db, config),
      messages: new MessageService(db, config.messaging, { info: () => undefined } as never),
      jobKinds: [],
    };
    const before = silent.connections();
    const mail = await runIntegrationCheck(context, "mail-transport", { timeoutMs: 300 });
    expect(mail).toMatchObject({
      status: "fail",
      summary: `Timed out after 0.3 s waiting for the SMTP server at 127.0.0.1:${silent.port} to greet.`,
      hint: "Start the SMTP server or fix SMTP_URL.",
    });
    expect(mail.durationMs).toBeLessThan(2000);
    expect(silent.connections()).toBeGreaterThan(before);
  });
});

describe("a deployment without SMTP or federation", () => {
  let harness: TestApp;
  let developer: string;
  let unreachable: string;

  beforeAll(async () => {
    unreachable = `http://127.0.0.1:${await closedPort()}`;
    harness = await createTestApp({ PUBLIC_URL: unreachable });
    developer = await harness.tokenFor("dev", ["developer"]);
  });
  afterAll(() => harness?.close());

  it("passes the mail check saying mail stays in the outbox, with how to deliver for real", async () => {
    const mail = await result(harness, developer, "mail-transport");
    expect(mail).toMatchObject({ status: "pass", details: { transport: "outbox" } });
    expect(mail.summary).toMatch(/outbox table/);
    expect(mail.hint).toMatch(/Set SMTP_URL/);
  });

  it("skips the federation check, saying why", async () => {
    const oidc = await result(harness, developer, "oidc-discovery");
    expect(oidc).toMatchObject({ status: "skipped", hint: null });
    expect(oidc.summary).toMatch(/OIDC_ISSUER is not set/);
  });

  it("fails the JWKS check at once when PUBLIC_URL is unreachable, pointing at PUBLIC_URL", async () => {
    const jwks = await result(harness, developer, "token-issuer-jwks");
    expect(jwks.status).toBe("fail");
    expect(jwks.summary).toContain(`Could not reach ${unreachable}/.well-known/jwks.json`);
    expect(jwks.summary).toMatch(/ECONNREFUSED/);
    expect(jwks.hint).toContain(`Set PUBLIC_URL (now ${unreachable})`);
    expect(jwks.durationMs).toBeLessThan(5000);
  });

  it("fails the migrations check for a database a newer release migrated, and for a missing migration", async () => {
    const { db } = harness.database;
    await db.execute(sql`insert into drizzle.__drizzle_migrations (hash, created_at) values ('newer', 9999999999999)`);
    try {
      const newer = await result(harness, developer, "migrations-current");
      expect(newer.status).toBe("fail");
      expect(newer.summary).toMatch(/1 migration\(s\) this server does not know/);
      expect(newer.hint).toMatch(/release that migrated this database/);
    } finally {
      await db.execute(sql`delete from drizzle.__drizzle_migrations where hash = 'newer'`);
    }
    const [latest] = (
      (await db.execute(
        sql`select id, hash, created_at from drizzle.__drizzle_migrations order by created_at desc limit 1`,
      )) as unknown as { rows: { id: number; hash: string; created_at: string }[] }
    ).rows;
    await db.execute(sql`delete from drizzle.__drizzle_migrations where id = ${latest?.id}`);
    try {
      const behind = await result(harness, developer, "migrations-current");
      expect(behind.status).toBe("fail");
      expect(behind.summary).toMatch(/^1 of \d+ migrations are not applied/);
      expect(behind.details.pending).toBe(behind.details.latestTag);
      expect(behind.hint).toMatch(/Restart the server/);
    } finally {
      await db.execute(
        sql`insert into drizzle.__drizzle_migrations (id, hash, created_at) values (${latest?.id}, ${latest?.hash}, ${latest?.created_at})`,
      );
    }
    expect((await result(harness, developer, "migrations-current")).status).toBe("pass");
  });
});
