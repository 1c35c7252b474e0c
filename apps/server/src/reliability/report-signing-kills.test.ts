import type { InterpretationItem } from "@vigil/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { queryRows } from "../db/client.js";
import { caseIn, type Team, teamFor } from "../testing/kits/cases-kit.js";
import { type MailServer, startMailServer } from "../testing/kits/findings-kit.js";
import { collectionOf, itemPath, sampleInterpretation } from "../testing/kits/records-kit.js";
import { clientNamingRecipients } from "../testing/kits/reports-kit.js";
import {
  type HttpAnswer,
  killAllServers,
  type ServerProcess,
  ServerUnreachableError,
  sleep,
  startServer,
} from "../testing/server-process.js";
import { createTestApp, type TestApp } from "../testing/test-app.js";

/**
 * A report's signing cut by `kill -9` at many moments (docs/design/REPORTS.md, "Delivery"): the real server, on
 * PostgreSQL, with a real SMTP server, is sent a signing and SIGKILLed at a moment between 0 ms and the signing's
 * unharmed duration (closing in on the commit, see below), then started again. Each time either nothing was signed (no version, no delivery, no mail), or the
 * version stands with every e-mail sent after the restart if not before, each delivery `sent` with one
 * `report-delivered` disclosure. An e-mail is mailed twice only in the one window REPORTS.md admits: the relay had
 * taken it before the kill and `sent` had not committed (the row read right after the kill says `pending`).
 *
 * Setup runs in-process (a test app on this file's database); the signings run on the server process, which shares
 * the database's token keys and PUBLIC_URL, so the reviewer's sign-in works on every start. One server at a time:
 * the restart takes the killed one's place. Needs DATABASE_URL (the in-process app and the process share the
 * database); `SIGNING_KILLS` (default 8) sets how many kills. Most of its time is the nine server starts (~4.5 s of
 * CPU each).
 */
const postgresUrl = loadConfig().databaseUrl;
const kills = Number(process.env.SIGNING_KILLS ?? 8);
const publicUrl = "http://vigil.test";

type Round = {
  caseId: string;
  caseNumber: string;
  itemId: string;
  revision: number;
  offsetMs?: number;
  /** The signing's answer, or undefined when the kill cut it off. */
  answer?: HttpAnswer;
  /** Right after the kill: whether a version was stored, and each delivery's status then. */
  afterKill?: { signed: boolean; statuses: Map<string, string> };
  /** Mails of this case the SMTP server had taken when the killed process was gone, per recipient address. */
  mailedBeforeKill?: Map<string, number>;
};

let harness: TestApp;
let team: Team;
let mail: MailServer;
let env: Record<string, string>;
let reviewer: { username: string; password: string };
let server: ServerProcess | undefined;
const startMs: number[] = [];
const began = Date.now();

async function rows<T>(query: ReturnType<typeof sql>): Promise<T[]> {
  return queryRows<T>(harness.database.db, query);
}

/** The mails taken for the case numbered `caseNumber`, per recipient address. */
function mailsOf(caseNumber: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const message of mail.received) {
    if (!message.data.includes(`case ${caseNumber}.`)) continue;
    for (const to of message.to) counts.set(to, (counts.get(to) ?? 0) + 1);
  }
  return counts;
}

async function deliveriesOf(caseId: string) {
  return rows<{ id: string; email: string; status: string; disclosures: number; job: string | null }>(
    sql`select d.id, d.recipient_email as email, d.status,
          (select count(*)::int from report_disclosures s where s.delivery_id = d.id and s.kind = 'report-delivered')
            as disclosures,
          (select j.state from jobs j where j.unique_key = 'report-delivery:' || d.id) as job
        from report_deliveries d where d.case_id = ${caseId}`,
  );
}

async function versionsOf(caseId: string): Promise<number> {
  const [row] = await rows<{ count: number }>(
    sql`select count(*)::int as count from report_versions where case_id = ${caseId}`,
  );
  return row?.count ?? 0;
}

async function start(label: string, port?: number): Promise<ServerProcess> {
  const at = Date.now();
  const started = await startServer({ label, env, port, readyTimeoutMs: 120_000 });
  startMs.push(Date.now() - at);
  return started;
}

/** A case in preview with a draft interpretation, signed later on the server process. */
async function draftedCase(clientId: string, token: string): Promise<Round> {
  const subject = await caseIn(harness, team, clientId, "preview");
  const created = await harness.app.inject({
    method: "POST",
    url: `/api/continuous-monitoring${collectionOf("interpretation", subject.id)}`,
    headers: { authorization: `Bearer ${token}` },
    payload: sampleInterpretation(),
  });
  expect(created.statusCode, created.body).toBe(201);
  const item = created.json().data as InterpretationItem;
  return { caseId: subject.id, caseNumber: subject.caseNumber, itemId: item.id, revision: item.revision };
}

function sign(on: ServerProcess, token: string, round: Round): Promise<HttpAnswer | undefined> {
  return on
    .request("POST", `/api/continuous-monitoring${itemPath("interpretation", round.caseId, round.itemId)}`, {
      token,
      body: { change: "sign", baseRevision: round.revision },
    })
    .catch((error: unknown) => {
      if (error instanceof ServerUnreachableError) return undefined;
      throw error;
    });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s\n${server?.logTail()}`);
    await sleep(100);
  }
}

describe.skipIf(!postgresUrl)("a report signing killed at any moment (skipped without DATABASE_URL)", () => {
  beforeAll(async () => {
    harness = await createTestApp({ PUBLIC_URL: publicUrl });
    team = await teamFor(harness, "sign-kill");
    reviewer = { username: "sign-kill-signer", password: await harness.addUser("sign-kill-signer", ["reviewer"]) };
    mail = await startMailServer();
    const [current] = await rows<{ name: string }>(sql`select current_database() as name`);
    const url = new URL(postgresUrl as string);
    url.pathname = `/${current?.name}`;
    env = {
      DATABASE_URL: url.toString(),
      PUBLIC_URL: publicUrl,
      SMTP_URL: mail.url,
      // Longer than the latest kill (at most 3 s and a little), so each kill falls before the jobs are due: a job claimed by the
      // dead instance would wait out its lease (3 min) and slow this test down without testing anything more.
      REPORT_DELIVERY_GRACE_SECONDS: "4",
      // Nothing else runs: the job runner only has report e-mails to send.
      WATCH_ALERT_SWEEP_SECONDS: "0",
      FINDING_WORKER_SECONDS: "0",
    };
  }, 120_000);

  afterAll(async () => {
    await killAllServers();
    await mail?.close();
    await harness?.close();
  });

  it("leaves no signature, or one whose e-mails all leave after the restart, each disclosed once", async () => {
    const { client } = await clientNamingRecipients(team);
    // Signed by the in-process app with the database's keys and the same PUBLIC_URL: valid on every start.
    const token = (await harness.signIn(reviewer.username, reviewer.password)).idToken;
    const rounds: Round[] = [];
    for (let index = 0; index <= kills; index += 1) rounds.push(await draftedCase(client.id, token));
    const [warmUp, ...killed] = rounds as [Round, ...Round[]];

    server = await start("signer");
    const port = server.port;
    // Once through unharmed, on a process just started like the restarted ones: the signing's own duration (the
    // first PDF after a start loads the fonts) sets where the kills fall. Its e-mails leave from the request; its
    // jobs, due after the grace, run on a restarted server and must find them sent.
    const signStarted = Date.now();
    warmUp.answer = await sign(server, token, warmUp);
    const signingMs = Date.now() - signStarted;
    expect(warmUp.answer?.status, warmUp.answer?.body).toBe(201);
    await until("the unharmed signing's e-mails", async () =>
      (await deliveriesOf(warmUp.caseId)).every((row) => row.status === "sent"),
    );

    // Where the kills fall: at 0 ms, at the unharmed signing's end, then each halfway between the latest kill that
    // left nothing signed and the earliest that left a signature. So they close in on the commit from both sides,
    // where a kill leaves a signature whose e-mails have not left: the moment the issue found them lost. (A fixed
    // spread misses it: the commit moves by hundreds of ms with the machine's load.) Kills at or below 20 ms apart
    // step just past the commit instead, into the e-mails' sends. The first kill falls on the warmed-up process
    // (fonts loaded, as on a server that has run a while); the others on one just restarted.
    const bounds = { unsigned: 0, signed: Math.min(3000, signingMs), seenSigned: false };
    const nextOffset = (index: number) => {
      if (index === 0) return 0;
      if (index === 1) return bounds.signed;
      // Slower than the unharmed signing (the machine's load rose): later, up to 3 s (the grace is 4 s).
      if (!bounds.seenSigned) return Math.min(3000, Math.round(bounds.unsigned * 1.5));
      if (bounds.signed - bounds.unsigned <= 20) return bounds.signed + 15 * index;
      return Math.round((bounds.unsigned + bounds.signed) / 2);
    };
    for (const [index, round] of killed.entries()) {
      const live = server as ServerProcess;
      round.offsetMs = nextOffset(index);
      const answered = sign(live, token, round);
      await sleep(round.offsetMs);
      await live.kill();
      round.answer = await answered;
      // The relay's last message, had the process sent its final dot, is taken within a moment.
      await sleep(100);
      round.mailedBeforeKill = mailsOf(round.caseNumber);
      const deliveries = await deliveriesOf(round.caseId);
      round.afterKill = {
        signed: (await versionsOf(round.caseId)) > 0,
        statuses: new Map(deliveries.map((row) => [row.id, row.status])),
      };
      if (round.afterKill.signed) {
        bounds.signed = bounds.seenSigned ? Math.min(bounds.signed, round.offsetMs) : round.offsetMs;
        bounds.seenSigned = true;
      } else {
        bounds.unsigned = Math.max(bounds.unsigned, round.offsetMs);
      }
      server = await start(`signer, restart ${index + 1}`, port);
      // The restarted server sends what the kill left pending (its jobs were due during the restart) before the
      // next signing, so the next kill never cuts one of those jobs short (its lease would hold it for minutes).
      await until(`${round.caseNumber}'s e-mails after the restart`, async () =>
        (await deliveriesOf(round.caseId)).every((row) => row.status === "sent" && row.job === "done"),
      );
    }

    // The last restarted server had time to send anything twice, had it been going to.
    await sleep(1500);
    expect(await deliveriesOf(warmUp.caseId)).toMatchObject([
      { status: "sent", disclosures: 1, job: "done" },
      { status: "sent", disclosures: 1, job: "done" },
    ]);
    expect([...mailsOf(warmUp.caseNumber).values()]).toEqual([1, 1]);

    const outcomes: string[] = [];
    let doubled = 0;
    for (const round of killed) {
      const what = `kill ${round.offsetMs} ms into the signing of ${round.caseNumber}`;
      const signed = (await versionsOf(round.caseId)) > 0;
      const deliveries = await deliveriesOf(round.caseId);
      const mails = mailsOf(round.caseNumber);
      if (round.answer) expect(round.answer.status, `${what}: ${round.answer.body}`).toBe(201);
      if (!signed) {
        // Rolled back whole: nothing to deliver, nothing mailed, and the signing may be tried again.
        expect(round.answer, what).toBeUndefined();
        expect(deliveries, what).toEqual([]);
        expect(mails.size, what).toBe(0);
        outcomes.push(`${round.offsetMs} ms: not signed`);
        continue;
      }
      // The protocol names two recipients with an address: two deliveries, each sent and disclosed once.
      expect(deliveries, what).toHaveLength(2);
      const sentBefore = [...(round.afterKill?.statuses.values() ?? [])].filter((status) => status === "sent").length;
      for (const delivery of deliveries) {
        expect(delivery, what).toMatchObject({ status: "sent", disclosures: 1, job: "done" });
        const total = mails.get(delivery.email) ?? 0;
        const before = round.mailedBeforeKill?.get(delivery.email) ?? 0;
        if (round.afterKill?.statuses.get(delivery.id) === "sent") {
          // Sent and recorded before the kill: never mailed again.
          expect(total, `${what}: ${delivery.email}`).toBe(1);
        } else {
          // Pending at the kill: mailed once more after the restart; a copy before it is the one admitted double.
          expect(total - before, `${what}: ${delivery.email} after the restart`).toBe(1);
          expect(before, `${what}: ${delivery.email} before the kill`).toBeLessThanOrEqual(1);
          doubled += before;
        }
      }
      outcomes.push(
        `${round.offsetMs} ms: signed${round.answer ? " (answered)" : ""}, ${sentBefore} of 2 sent before the kill`,
      );
    }
    // The kills did land on both sides of the commit, or the test proved less than it says.
    expect(outcomes.some((line) => line.includes("not signed"))).toBe(true);
    expect(outcomes.some((line) => line.includes(": signed"))).toBe(true);
    console.info(
      `report signing kills (PostgreSQL): the signing took ${signingMs} ms unharmed; ${killed.length} kills: ` +
        `${outcomes.join("; ")}; ${doubled} e-mail(s) mailed twice (taken by the relay, not yet ` +
        `recorded); starts took ${startMs.map((ms) => (ms / 1000).toFixed(1)).join(", ")} s; ` +
        `${((Date.now() - began) / 1000).toFixed(1)} s in all`,
    );
  }, 300_000);
});
