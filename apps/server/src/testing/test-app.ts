import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { AccessGroup } from "@vigil/contract";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import pg from "pg";
import { inject } from "vitest";
import { type AppOptions, buildApp } from "../app.js";
import { type Config, loadConfig } from "../config.js";
import { type Database, openDatabase } from "../db/client.js";
import { createUser } from "../identity/user-directory.js";

export const testClientId = "vigilweb0000000000000000000";

/**
 * A real database for one test file. Without DATABASE_URL: an in-memory PGlite. With it: a new PostgreSQL
 * database created for this file (from the run's migrated template), so files run in parallel without sharing
 * state; `drop` closes it, and the run's end drops it.
 */
export async function openTestDatabase(): Promise<{ database: Database; drop: () => Promise<void> }> {
  const url = loadConfig().databaseUrl;
  if (!url) {
    // A migrated cluster dumped once per run (pglite-template.ts) saves each file PGlite's initdb.
    const templateFile = inject("pgliteTemplate");
    const template = templateFile && existsSync(templateFile) ? new Blob([readFileSync(templateFile)]) : undefined;
    const database = await openDatabase({ kind: "pglite", template });
    return { database, drop: () => database.close() };
  }
  // Named with the run's prefix: the run's global teardown drops them all at once (pglite-template.ts), since a
  // drop per file waits for a checkpoint of its own.
  const name = `${inject("postgresRunPrefix")}_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  // A copy of the run's migrated template database (pglite-template.ts) takes a fraction of migrating a new one;
  // openDatabase still runs the migrations, which then find nothing to do.
  const template = inject("postgresTemplate");
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`create database ${name}${template ? ` template ${template}` : ""}`);
  // A commit need not wait for the disk in a test database (the server process, not PostgreSQL, is what the crash
  // tests kill): on this machine a commit took ~9 ms with the flush and ~0.8 ms without.
  await admin.query(`alter database ${name} set synchronous_commit = off`);
  await admin.end();
  const testUrl = new URL(url);
  testUrl.pathname = `/${name}`;
  const database = await openDatabase({ kind: "postgres", url: testUrl.toString(), poolSize: 4 });
  return { database, drop: () => database.close() };
}

export type TestApp = {
  app: FastifyInstance;
  database: Database;
  config: Config;
  /** Creates a confirmed user with the given groups and returns its password. */
  addUser: (username: string, groups: AccessGroup[]) => Promise<string>;
  /** Signs in through the Cognito endpoint, exactly as the web app does; returns the tokens. */
  signIn: (
    username: string,
    password: string,
  ) => Promise<{ idToken: string; accessToken: string; refreshToken: string }>;
  /** Creates a user and signs them in; returns the ID token. */
  tokenFor: (username: string, groups: AccessGroup[]) => Promise<string>;
  cognito: (operation: string, body: unknown) => Promise<LightMyRequestResponse>;
  close: () => Promise<void>;
};

export async function createTestApp(
  env: Record<string, string> = {},
  options: { webFiles?: Record<string, string>; logger?: AppOptions["logger"] } = {},
): Promise<TestApp> {
  const webDistDir = mkdtempSync(path.join(tmpdir(), "vigil-web-"));
  for (const [file, content] of Object.entries(options.webFiles ?? {})) {
    mkdirSync(path.dirname(path.join(webDistDir, file)), { recursive: true });
    writeFileSync(path.join(webDistDir, file), content);
  }
  const config = loadConfig({
    ...process.env,
    LOG_LEVEL: "silent",
    SEED: "none",
    PUBLIC_URL: "http://vigil.test",
    RELEASE_ID: "test-release",
    WEB_DIST_DIR: webDistDir,
    ...env,
  });
  const { database, drop } = await openTestDatabase();
  const app = await buildApp({ config, database, logger: options.logger ?? false });
  await app.ready();

  const cognito = (operation: string, body: unknown) =>
    app.inject({
      method: "POST",
      url: "/cognito",
      headers: {
        "content-type": "application/x-amz-json-1.1",
        "x-amz-target": `AWSCognitoIdentityProviderService.${operation}`,
      },
      payload: JSON.stringify(body),
    });

  const addUser = async (username: string, groups: AccessGroup[]) => {
    const password = `pw-${username}-${Math.random().toString(36).slice(2)}`;
    await createUser(
      database.db,
      { username, email: `${username}@vigil.test`, name: `${username} Tester`, groups, password },
      { username: "test" },
    );
    return password;
  };

  const signIn = async (username: string, password: string) => {
    const response = await cognito("InitiateAuth", {
      AuthFlow: "USER_PASSWORD_AUTH",
      ClientId: testClientId,
      AuthParameters: { USERNAME: username, PASSWORD: password },
    });
    if (response.statusCode !== 200) throw new Error(`sign-in failed: ${response.body}`);
    const result = response.json().AuthenticationResult;
    return { idToken: result.IdToken, accessToken: result.AccessToken, refreshToken: result.RefreshToken };
  };

  return {
    app,
    database,
    config,
    addUser,
    signIn,
    tokenFor: async (username, groups) => (await signIn(username, await addUser(username, groups))).idToken,
    cognito,
    close: async () => {
      await app.close();
      await drop();
      rmSync(webDistDir, { recursive: true, force: true });
    },
  };
}
