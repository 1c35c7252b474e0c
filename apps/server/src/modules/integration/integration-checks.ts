import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { statfs } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { IntegrationCheckId, IntegrationResult } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { decodeProtectedHeader } from "jose";
import nodemailer from "nodemailer";
import type { Config } from "../../config.js";
import { type Database, queryRows } from "../../db/client.js";
import { findActiveSigningKey } from "../../identity/signing-keys-repository.js";
import type { TokenService } from "../../identity/token-service.js";
import type { MessageService } from "../../messaging/message-service.js";

/**
 * The live self-checks of a deployment: each one talks to a real peer — the database, the server's own
 * public address, the SMTP server, the upstream OpenID provider — and says in one sentence what it found and, when
 * that is wrong, what to do. The service runs one at a time under a time limit; a check only has to stop waiting
 * when its `signal` aborts.
 */
export type CheckContext = {
  database: Database;
  config: Config;
  tokens: TokenService;
  messages: MessageService;
};

export type CheckOutcome = Pick<IntegrationResult, "status" | "summary" | "hint" | "details">;

export type CheckRun = {
  signal: AbortSignal;
  /** What the check has to finish in; peers with their own timeouts (SMTP) are given this. */
  budgetMs: number;
};

export type IntegrationCheck = {
  id: IntegrationCheckId;
  title: string;
  purpose: string;
  run: (context: CheckContext, run: CheckRun) => Promise<CheckOutcome>;
  /** What was being waited for, said when the time runs out or the check throws, and what to do about it. */
  stalled: (context: CheckContext) => { waitingFor: string; hint: string };
};

type Details = CheckOutcome["details"];

const pass = (summary: string, details: Details, hint: string | null = null): CheckOutcome => ({
  status: "pass",
  summary,
  hint,
  details,
});
const fail = (summary: string, hint: string, details: Details): CheckOutcome => ({
  status: "fail",
  summary,
  hint,
  details,
});
const skipped = (summary: string, details: Details = {}): CheckOutcome => ({
  status: "skipped",
  summary,
  hint: null,
  details,
});

const round = (value: number, decimals = 1) => Math.round(value * 10 ** decimals) / 10 ** decimals;

/** The error of a failed network call, with the system's reason (ECONNREFUSED…) that `fetch` hides in `cause`. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause as { code?: string; message?: string } | undefined;
  if (!cause?.message) return cause?.code ?? error.message;
  return cause.code && !cause.message.includes(cause.code) ? `${cause.code}: ${cause.message}` : cause.message;
}

// ---------------------------------------------------------------------------------------------------------------
// Database
// ---------------------------------------------------------------------------------------------------------------

/** A healthy database answers a trivial query in milliseconds; a second means load, network or a dying disk. */
const slowDatabaseMs = 1000;
const databaseHint =
  "Check that the database is running and reachable (DATABASE_URL, or the DATA_DIR folder for the embedded one).";

const databaseRoundTrip: IntegrationCheck = {
  id: "database-round-trip",
  title: "Database round trip",
  purpose: "One query to the database and back: is it up, how fast, which engine and version.",
  async run({ database }) {
    const started = performance.now();
    const [row] = await queryRows<{ version: string }>(
      database.db,
      sql`select current_setting('server_version') as version`,
    );
    const latencyMs = round(performance.now() - started, 2);
    const details = { engine: database.engine, serverVersion: row?.version ?? null, latencyMs };
    const engine = database.engine === "pglite" ? "Embedded PostgreSQL (PGlite)" : "PostgreSQL";
    if (latencyMs > slowDatabaseMs) {
      return fail(
        `${engine} ${details.serverVersion} answered, but took ${latencyMs} ms (over ${slowDatabaseMs} ms).`,
        "The database is slow to answer a trivial query: look at its load, its disk and the network to it.",
        details,
      );
    }
    return pass(`${engine} ${details.serverVersion} answered in ${latencyMs} ms.`, details);
  },
  stalled: () => ({ waitingFor: "the database to answer `select`", hint: databaseHint }),
};

// The same folder db/client.ts migrates from; the server runs from its sources (tsx), so the files ship with it.
const migrationsFolder = fileURLToPath(new URL("../../db/migrations", import.meta.url));
const migrateHint = "Restart the server: migrations run at start (or run `npm run db:migrate -w @vigil/server`).";

const migrationsCurrent: IntegrationCheck = {
  id: "migrations-current",
  title: "Database migrations",
  purpose: "The migrations applied in the database are exactly those this server version ships.",
  async run({ database }) {
    const journal = JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as {
      entries: { tag: string; when: number }[];
    };
    const shipped = readMigrationFiles({ migrationsFolder }).map((file, index) => ({
      tag: journal.entries[index]?.tag ?? `#${index}`,
      when: file.folderMillis,
      hash: file.hash,
    }));
    const latestTag = shipped.at(-1)?.tag ?? null;
    const [table] = await queryRows<{ present: boolean }>(
      database.db,
      sql`select to_regclass('drizzle.__drizzle_migrations') is not null as present`,
    );
    if (!table?.present) {
      return fail("The database has no migrations table: it was never migrated.", migrateHint, {
        applied: 0,
        expected: shipped.length,
        latestTag,
      });
    }
    // Drizzle's own bookkeeping: one row per applied file, keyed by the journal time (created_at) it was made at.
    const appliedRows = await queryRows<{ hash: string; created_at: string | number }>(
      database.db,
      sql`select hash, created_at from drizzle.__drizzle_migrations order by created_at`,
    );
    const applied = new Map(appliedRows.map((row) => [Number(row.created_at), row.hash]));
    const shippedTimes = new Set(shipped.map((file) => file.when));
    const pending = shipped.filter((file) => !applied.has(file.when));
    const changed = shipped.filter((file) => applied.has(file.when) && applied.get(file.when) !== file.hash);
    const unknown = appliedRows.filter((row) => !shippedTimes.has(Number(row.created_at)));
    const latestApplied = [...shipped].reverse().find((file) => applied.has(file.when));
    const details = {
      applied: appliedRows.length,
      expected: shipped.length,
      latestTag,
      latestAppliedTag: latestApplied?.tag ?? null,
      pending: pending.map((file) => file.tag).join(", ") || null,
      changedAfterApplying: changed.map((file) => file.tag).join(", ") || null,
      unknownApplied: unknown.length,
    };
    if (unknown.length > 0) {
      return fail(
        `The database has ${unknown.length} migration(s) this server does not know: a newer release migrated it.`,
        "Run the release that migrated this database (or restore a backup taken before it); an older server " +
          "must not run against a newer schema.",
        details,
      );
    }
    if (pending.length > 0) {
      return fail(
        `${pending.length} of ${shipped.length} migrations are not applied (first: ${pending[0]?.tag}).`,
        `${migrateHint} A migration that stays pending has a journal time older than the last one applied, ` +
          "which drizzle skips: regenerate it.",
        details,
      );
    }
    if (changed.length > 0) {
      return fail(
        `Migration ${changed[0]?.tag} was edited after it was applied: the database may differ from the schema.`,
        "Never edit an applied migration: restore the shipped file and put the change in a new migration.",
        details,
      );
    }
    return pass(`All ${shipped.length} migrations are applied; the latest is ${latestTag}.`, details);
  },
  stalled: () => ({ waitingFor: "the database to list its applied migrations", hint: databaseHint }),
};

/** Tokens and audit times are written by the server and compared with the database's clock. */
const maxClockSkewMs = 2000;

const clockSkew: IntegrationCheck = {
  id: "clock-skew",
  title: "Clock skew",
  purpose: "The database's clock and the server's agree, so token expiry and audit times mean the same everywhere.",
  async run({ database }) {
    const before = Date.now();
    // clock_timestamp(), not now(): now() is the transaction's start, which a pooled connection may hold back.
    const [row] = await queryRows<{ ms: number | string }>(
      database.db,
      sql`select (extract(epoch from clock_timestamp()) * 1000)::float8 as ms`,
    );
    const after = Date.now();
    const databaseMs = Number(row?.ms);
    const roundTripMs = after - before;
    // The database read its clock somewhere in the round trip: compare with its middle, and forgive half of it.
    const skewMs = Math.round(databaseMs - (before + after) / 2);
    const uncertainMs = Math.ceil(roundTripMs / 2);
    const details = {
      skewMs,
      roundTripMs,
      databaseTime: new Date(databaseMs).toISOString(),
      serverTime: new Date(after).toISOString(),
      limitMs: maxClockSkewMs,
    };
    if (Math.abs(skewMs) - uncertainMs > maxClockSkewMs) {
      return fail(
        `The database's clock is ${Math.abs(skewMs)} ms ${skewMs > 0 ? "ahead of" : "behind"} the server's ` +
          `(limit ${maxClockSkewMs} ms).`,
        "Synchronise both machines' clocks with NTP (chrony or systemd-timesyncd): token expiry and audit " +
          "times depend on them agreeing.",
        details,
      );
    }
    return pass(`The clocks agree within ${Math.abs(skewMs)} ms (round trip ${roundTripMs} ms).`, details);
  },
  stalled: () => ({ waitingFor: "the database to read its clock", hint: databaseHint }),
};

const minFreeBytes = 1024 ** 3;
const minFreeShare = 0.05;

/** The folder itself, or the nearest parent that exists (the embedded database creates its folder at start). */
async function existingFolder(folder: string): Promise<string> {
  let current = folder;
  for (;;) {
    try {
      await statfs(current);
      return current;
    } catch (error) {
      const parent = path.dirname(current);
      if ((error as NodeJS.ErrnoException).code !== "ENOENT" || parent === current) throw error;
      current = parent;
    }
  }
}

const dataFolderDisk: IntegrationCheck = {
  id: "data-folder-disk",
  title: "Data folder disk space",
  purpose: "The embedded database's folder has room to grow: a full disk stops every write.",
  async run({ database, config }) {
    if (database.engine !== "pglite") {
      return skipped(
        "The database is PostgreSQL (DATABASE_URL): its disk belongs to the database server and is watched there.",
        { engine: database.engine },
      );
    }
    const folder = await existingFolder(config.dataDir);
    const stats = await statfs(folder);
    const freeBytes = stats.bavail * stats.bsize;
    const totalBytes = stats.blocks * stats.bsize;
    const freePercent = totalBytes > 0 ? round((freeBytes / totalBytes) * 100) : 0;
    const details = { folder, freeBytes, totalBytes, freePercent, minFreeBytes, minFreePercent: minFreeShare * 100 };
    const free = `${round(freeBytes / 1024 ** 3, 2)} GiB (${freePercent} %)`;
    if (freeBytes < minFreeBytes || freeBytes < totalBytes * minFreeShare) {
      return fail(
        `Only ${free} free where the data folder lives (${folder}); the limit is 1 GiB and 5 %.`,
        "Free disk space or move DATA_DIR to a larger disk (stop the server, move the folder, set DATA_DIR).",
        details,
      );
    }
    return pass(`${free} free where the data folder lives (${folder}).`, details);
  },
  stalled: ({ config }) => ({
    waitingFor: `the file system to report on ${config.dataDir}`,
    hint: "The disk of DATA_DIR does not answer: check the mount (a network share?) and the machine's disks.",
  }),
};

// ---------------------------------------------------------------------------------------------------------------
// Tokens
// ---------------------------------------------------------------------------------------------------------------

/**
 * Signs a throw-away ID token exactly as a sign-in does and verifies it as every request is verified, which proves
 * the key this server signs with is loaded, usable and published. The token is never handed out; its session id is
 * random and stored nowhere, so it could not authenticate a request anyway.
 */
async function probeSigningKey({ tokens, config }: CheckContext): Promise<{ kid: string | null; error?: string }> {
  const issued = await tokens.issue(
    {
      sub: randomUUID(),
      username: "integration-check-probe",
      email: "probe@vigil.invalid",
      emailVerified: false,
      phoneNumber: null,
      phoneNumberVerified: false,
      name: "Integration check probe",
      groups: [],
    },
    { originJti: randomUUID(), authTime: new Date() },
    config.userPoolClientId,
  );
  const kid = decodeProtectedHeader(issued.idToken).kid ?? null;
  try {
    await tokens.verifyIdToken(issued.idToken);
    return { kid };
  } catch (error) {
    return { kid, error: describeError(error) };
  }
}

const restartHint = "Restart the server: it loads (and, when due, rotates) its signing key at start.";

const signingKeys: IntegrationCheck = {
  id: "signing-keys",
  title: "Token signing keys",
  purpose: "The key that signs sign-in tokens is present, usable (a probe signs and verifies) and not overdue.",
  async run(context) {
    const { tokens, config, database } = context;
    const active = await findActiveSigningKey(database.db);
    const published = (await tokens.publishedKeys()).keys.map((key) => key.kid ?? "?");
    if (!active) {
      return fail("The database holds no active signing key: no sign-in can succeed.", restartHint, {
        algorithm: "ES256",
        publishedKids: published.join(", ") || null,
      });
    }
    const probe = await probeSigningKey(context);
    const now = Date.now();
    const rotationMs = config.tokens.keyRotationDays * 86_400_000;
    const rotationDue = new Date(active.createdAt.getTime() + rotationMs);
    const details = {
      algorithm: "ES256",
      activeKid: active.kid,
      signingKid: probe.kid,
      publishedKids: published.join(", "),
      createdAt: active.createdAt.toISOString(),
      ageDays: round((now - active.createdAt.getTime()) / 86_400_000),
      rotationDays: config.tokens.keyRotationDays,
      rotationDueAt: rotationDue.toISOString(),
      daysUntilRotation: round((rotationDue.getTime() - now) / 86_400_000),
    };
    if (probe.error) {
      return fail(
        `A probe token signed with key ${probe.kid} did not verify: ${probe.error}`,
        `${restartHint} If it persists, another instance may have retired this key: restart them all.`,
        details,
      );
    }
    if (probe.kid !== active.kid) {
      return fail(
        `This server signs with key ${probe.kid}, but the active key is ${active.kid}: another instance rotated it.`,
        `${restartHint} Its tokens stop verifying once the old key is no longer published.`,
        details,
      );
    }
    // Keys carry no expiry: they are replaced at start once older than SIGNING_KEY_ROTATION_DAYS.
    const age = `created ${details.createdAt.slice(0, 10)}, ${details.ageDays} days old`;
    if (rotationDue.getTime() <= now) {
      return fail(
        `Key ${active.kid} signs and verifies, but is overdue for rotation (${age}; rotation every ` +
          `${config.tokens.keyRotationDays} days).`,
        `${restartHint} Keys do not expire on their own; SIGNING_KEY_ROTATION_DAYS sets how old they may get.`,
        details,
      );
    }
    return pass(
      `Key ${active.kid} (ES256) signs and verifies; ${age}. Keys do not expire: a new one replaces it at the ` +
        `first start after ${details.rotationDueAt.slice(0, 10)}.`,
      details,
    );
  },
  stalled: () => ({ waitingFor: "the signing keys to load from the database", hint: databaseHint }),
};

async function fetchJson(url: string, signal: AbortSignal): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, { signal, headers: { accept: "application/json" }, redirect: "follow" });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body };
}

const publicUrlHint = (publicUrl: string) =>
  `Set PUBLIC_URL (now ${publicUrl}) to the address users reach Vigil at, and make sure this server can reach ` +
  "it too (DNS, proxy, firewall): tokens name it as their issuer, and clients fetch the keys there.";

const tokenIssuerJwks: IntegrationCheck = {
  id: "token-issuer-jwks",
  title: "Token issuer keys (JWKS)",
  purpose: "The issuer's public keys are reachable at PUBLIC_URL and include the key tokens are signed with now.",
  async run(context, { signal }) {
    const url = `${context.config.publicUrl}/.well-known/jwks.json`;
    const { kid } = await probeSigningKey(context);
    const started = performance.now();
    let answer: { status: number; body: unknown };
    try {
      answer = await fetchJson(url, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return fail(`Could not reach ${url}: ${describeError(error)}.`, publicUrlHint(context.config.publicUrl), {
        url,
        currentKid: kid,
      });
    }
    const latencyMs = round(performance.now() - started);
    const keys = (answer.body as { keys?: { kid?: string }[] } | undefined)?.keys;
    const kids = Array.isArray(keys) ? keys.map((key) => key.kid ?? "?") : [];
    const details = { url, httpStatus: answer.status, latencyMs, currentKid: kid, publishedKids: kids.join(", ") };
    if (answer.status !== 200 || !Array.isArray(keys)) {
      return fail(
        `${url} answered HTTP ${answer.status}${Array.isArray(keys) ? "" : " without a key set"}.`,
        `${publicUrlHint(context.config.publicUrl)} A proxy must pass /.well-known/ through to Vigil.`,
        details,
      );
    }
    if (!kid || !kids.includes(kid)) {
      return fail(
        `${url} publishes ${kids.length} key(s), but not ${kid}, the key tokens are signed with now.`,
        "PUBLIC_URL may point at another deployment, or a cache serves an old copy of the keys (they may be " +
          "cached 5 minutes): check PUBLIC_URL and the proxy's caching.",
        details,
      );
    }
    return pass(`${url} publishes the current key ${kid} (${kids.length} key(s), ${latencyMs} ms).`, details);
  },
  stalled: ({ config }) => ({
    waitingFor: `${config.publicUrl}/.well-known/jwks.json to answer`,
    hint: publicUrlHint(config.publicUrl),
  }),
};

// ---------------------------------------------------------------------------------------------------------------
// Mail and federation
// ---------------------------------------------------------------------------------------------------------------

/** `host:port` of an SMTP URL as nodemailer reads it (587, or 465 for smtps), never its credentials. */
export function smtpAddress(smtpUrl: string): { host: string; port: number; secure: boolean } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return { host: url.hostname, port: Number(url.port) || (secure ? 465 : 587), secure };
}

const smtpHint = "Start the SMTP server or fix SMTP_URL.";

const mailTransport: IntegrationCheck = {
  id: "mail-transport",
  title: "Mail delivery",
  purpose: "Temporary passwords and codes can leave by email: an SMTP handshake, or the note that they stay inside.",
  async run({ config, messages }, { budgetMs }) {
    const transport = messages.transportFor("email");
    const smtpUrl = config.messaging.smtpUrl;
    if (transport === "outbox") {
      return pass(
        "No SMTP server is configured: emails are kept in the outbox table and the server log, not delivered.",
        { transport },
        "Set SMTP_URL (smtp://user:password@host:587) for real delivery.",
      );
    }
    if (transport !== "smtp" || !smtpUrl) {
      return skipped(`Email leaves through the "${transport}" transport, which this check cannot probe.`, {
        transport,
      });
    }
    const { host, port, secure } = smtpAddress(smtpUrl);
    const details = { transport, host, port, secure };
    // A transport of our own rather than the message service's, which must not wait long. Its timeouts are a second
    // past the check's budget: on a stalled event loop both limits came due in the same turn and nodemailer's
    // "Greeting never received" sometimes spoke instead of the check's own time-limit message (CI on PostgreSQL).
    const backstopMs = budgetMs + 1000;
    const probe = nodemailer.createTransport({
      url: smtpUrl,
      connectionTimeout: backstopMs,
      greetingTimeout: backstopMs,
      socketTimeout: backstopMs,
    });
    const started = performance.now();
    try {
      await probe.verify();
    } catch (error) {
      return fail(
        `The SMTP handshake with ${host}:${port} failed: ${describeError(error)}.`,
        `${smtpHint} (Credentials and TLS are part of the handshake: smtps:// for port 465.)`,
        { ...details, error: describeError(error) },
      );
    } finally {
      probe.close();
    }
    const latencyMs = round(performance.now() - started);
    return pass(`The SMTP server at ${host}:${port} completed the handshake in ${latencyMs} ms.`, {
      ...details,
      latencyMs,
    });
  },
  stalled: ({ config }) => {
    const address = config.messaging.smtpUrl ? smtpAddress(config.messaging.smtpUrl) : undefined;
    return {
      waitingFor: address ? `the SMTP server at ${address.host}:${address.port} to greet` : "the mail transport",
      hint: smtpHint,
    };
  },
};

const oidcHint = (issuer: string) =>
  `Check OIDC_ISSUER (now ${issuer}): it must be the provider's issuer exactly, reachable from this server.`;

const oidcDiscovery: IntegrationCheck = {
  id: "oidc-discovery",
  title: "Federated sign-in provider",
  purpose: "The upstream OpenID Connect provider publishes its configuration and keys, as sign-in needs them.",
  async run({ config }, { signal }) {
    const federation = config.federation;
    if (!federation) return skipped("Federated sign-in is not configured (OIDC_ISSUER is not set).");
    const issuer = federation.issuer;
    const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    let answer: { status: number; body: unknown };
    try {
      answer = await fetchJson(url, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return fail(`Could not reach ${url}: ${describeError(error)}.`, oidcHint(issuer), { url });
    }
    const document = (answer.body ?? {}) as Record<string, unknown>;
    const required = ["issuer", "authorization_endpoint", "token_endpoint", "jwks_uri"] as const;
    const missing = required.filter((field) => typeof document[field] !== "string" || document[field] === "");
    const details = {
      url,
      httpStatus: answer.status,
      issuer: typeof document.issuer === "string" ? document.issuer : null,
      authorizationEndpoint:
        typeof document.authorization_endpoint === "string" ? document.authorization_endpoint : null,
      tokenEndpoint: typeof document.token_endpoint === "string" ? document.token_endpoint : null,
      jwksUri: typeof document.jwks_uri === "string" ? document.jwks_uri : null,
    };
    if (answer.status !== 200 || missing.length > 0) {
      return fail(
        answer.status !== 200
          ? `${url} answered HTTP ${answer.status}.`
          : `The provider's configuration lacks ${missing.join(", ")}.`,
        oidcHint(issuer),
        details,
      );
    }
    // openid-client refuses a provider whose document names another issuer, so sign-in would fail there.
    if (document.issuer !== issuer) {
      return fail(
        `The provider calls itself ${String(document.issuer)}, not ${issuer}: sign-in would refuse its answers.`,
        oidcHint(issuer),
        details,
      );
    }
    let keys: { status: number; body: unknown };
    try {
      keys = await fetchJson(details.jwksUri as string, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      return fail(
        `The provider's keys at ${details.jwksUri} could not be fetched: ${describeError(error)}.`,
        oidcHint(issuer),
        details,
      );
    }
    const keyCount = (keys.body as { keys?: unknown[] } | undefined)?.keys?.length ?? 0;
    if (keys.status !== 200 || keyCount === 0) {
      return fail(
        `The provider's keys at ${details.jwksUri} answered HTTP ${keys.status} with ${keyCount} key(s).`,
        oidcHint(issuer),
        { ...details, keyCount },
      );
    }
    return pass(`${federation.providerName} (${issuer}) publishes its endpoints and ${keyCount} key(s).`, {
      ...details,
      keyCount,
    });
  },
  stalled: ({ config }) => ({
    waitingFor: `the OpenID provider ${config.federation?.issuer ?? ""} to answer`,
    hint: oidcHint(config.federation?.issuer ?? "unset"),
  }),
};

/** In the contract's order, which is the order the page lists them. */
export const integrationChecks: Record<IntegrationCheckId, IntegrationCheck> = {
  "database-round-trip": databaseRoundTrip,
  "migrations-current": migrationsCurrent,
  "signing-keys": signingKeys,
  "token-issuer-jwks": tokenIssuerJwks,
  "mail-transport": mailTransport,
  "clock-skew": clockSkew,
  "data-folder-disk": dataFolderDisk,
  "oidc-discovery": oidcDiscovery,
};
