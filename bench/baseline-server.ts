import { type Permission, permissionsOf } from "@vigil/contract";
import { sql } from "drizzle-orm";
import Fastify from "fastify";
import { caseDependenciesOf } from "../apps/server/src/app.js";
import { loadConfig } from "../apps/server/src/config.js";
import { openDatabase, queryRows } from "../apps/server/src/db/client.js";
import type { Principal } from "../apps/server/src/http/principal.js";
import { billingSettingsOf, listBillingMonths } from "../apps/server/src/modules/billing/billing-service.js";
import { getBillingStatement } from "../apps/server/src/modules/billing/billing-statements-service.js";
import { getAgingReport, getStatementOfAccount } from "../apps/server/src/modules/billing/receivables-service.js";
import { getBillableHoursReport } from "../apps/server/src/modules/billing/reporting-service.js";
import { listCaseQueue } from "../apps/server/src/modules/cases/case-lists-service.js";
import { getCase } from "../apps/server/src/modules/cases/cases-service.js";
import { buildMenu } from "../apps/server/src/modules/chrome/chrome-service.js";
import { listClients } from "../apps/server/src/modules/clients/clients-service.js";
import { listRecords } from "../apps/server/src/modules/records/records-service.js";
import { getWatchBoard } from "../apps/server/src/modules/watch/board-service.js";
import { benchUser, runSettings } from "./config.js";

/**
 * The bare baseline: a plain Fastify app answering the benchmarked reads with the product's own data code (the
 * services and repositories the real routes call, so the SQL is the same statement for statement) on a pg pool
 * of the server's size — and nothing else: no token check or session lookup, no zod validation or response
 * schema (Fastify's default JSON.stringify), no patient-data audit row, no security headers. The ratio of the
 * real server's throughput to this one's is what the request pipeline costs.
 *
 * Started by run.ts as its own process (`tsx bench/baseline-server.ts`) with DATABASE_URL and PORT.
 */

type Query = Record<string, string | undefined>;

const number = (value: string | undefined, fallback: number) => (value === undefined ? fallback : Number(value));

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, SEED: "none" });
  if (!config.databaseUrl) throw new Error("DATABASE_URL is required");
  const database = await openDatabase({ kind: "postgres", url: config.databaseUrl, poolSize: runSettings.poolSize });
  const { db } = database;
  const caseDependencies = caseDependenciesOf(config);
  const settings = billingSettingsOf(config);

  // Who "asks": the bench administrator, as the real server would know them after its token check.
  const [bench] = await queryRows<{ sub: string }>(
    db,
    sql`select sub from users where username_key = ${benchUser.username.toLowerCase()}`,
  );
  if (!bench) throw new Error(`No ${benchUser.username} in the database: run bench/generate-data.ts first.`);
  const groups = ["admin"] as Principal["groups"];
  const permissions: Set<Permission> = permissionsOf(groups);
  const principal: Principal = {
    sub: bench.sub,
    username: benchUser.username,
    groups,
    permissions,
    originJti: "00000000-0000-0000-0000-000000000000",
  };
  const user = { sub: bench.sub, username: benchUser.username, permissions };

  const app = Fastify({ logger: false });
  app.get("/healthz", async () => ({ ok: true }));
  app.get("/api/chrome", async () => ({ data: { items: buildMenu(principal) } }));
  app.get("/api/continuous-monitoring/clients", async (request) => {
    const query = request.query as Query;
    return {
      data: await listClients(db, {
        search: query.search,
        status: (query.status as "all" | undefined) ?? "all",
        sort: (query.sort as "name" | undefined) ?? "name",
        order: (query.order as "asc" | undefined) ?? "asc",
        limit: number(query.limit, 50),
        offset: number(query.offset, 0),
      }),
    };
  });
  for (const stage of ["intake", "monitoring", "preview", "reviewed", "closed"] as const) {
    app.get(`/api/continuous-monitoring/cases/${stage}`, async (request) => {
      const query = request.query as Query;
      return {
        data: await listCaseQueue(db, stage, {
          clientId: query.clientId,
          priority: query.priority as "stat" | undefined,
          technologistId: query.technologistId,
          reviewerId: query.reviewerId,
          createdFrom: query.createdFrom,
          createdTo: query.createdTo,
          search: query.search,
          sort: (query.sort as "priority" | undefined) ?? "priority",
          order: (query.order as "asc" | undefined) ?? "asc",
          limit: number(query.limit, 50),
          offset: number(query.offset, 0),
        }),
      };
    });
  }
  app.get("/api/continuous-monitoring/board", async (request) => {
    const query = request.query as Query;
    return {
      data: await getWatchBoard(
        db,
        {
          clientId: query.clientId,
          stage: query.stage as "monitoring" | undefined,
          kind: query.kind as "impedance-check" | undefined,
          owner: query.owner,
          mine: query.mine === "true",
          alsoDueSoon: query.alsoDueSoon === "true",
          limit: number(query.limit, 50),
          offset: number(query.offset, 0),
        },
        principal,
        config.watch,
      ),
    };
  });
  app.get("/api/continuous-monitoring/cases/:id", async (request) => ({
    data: await getCase(db, (request.params as { id: string }).id, user, caseDependencies),
  }));
  app.get("/api/continuous-monitoring/cases/monitoring/:id/time-logs", async (request) => {
    const query = request.query as Query;
    return {
      data: await listRecords(
        { db, caps: config.technologistCaps },
        "time-log",
        (request.params as { id: string }).id,
        {
          includeDeleted: query.includeDeleted === "true",
          limit: number(query.limit, 50),
          offset: number(query.offset, 0),
        },
        principal,
      ),
    };
  });
  app.get("/api/billing/continuous-monitoring", async (request) => {
    const query = request.query as Query;
    return {
      data: await listBillingMonths(
        db,
        {
          from: query.from,
          to: query.to,
          clientId: query.clientId,
          missingRate: query.missingRate === undefined ? undefined : query.missingRate === "true",
          limit: number(query.limit, 50),
          offset: number(query.offset, 0),
        },
        settings.currency,
      ),
    };
  });
  app.get("/api/billing/continuous-monitoring/:client/:month", async (request) => {
    const params = request.params as { client: string; month: string };
    return { data: await getBillingStatement(db, params.client, params.month, settings) };
  });
  app.get("/api/reporting/continuous-monitoring/billable-hours", async (request) => {
    const query = request.query as Query;
    return {
      data: await getBillableHoursReport(db, {
        from: query.from as string,
        to: query.to as string,
        clientId: query.clientId,
        technologist: query.technologist,
        groupBy: (query.groupBy as "day" | undefined) ?? "month",
      }),
    };
  });

  app.get("/api/billing/receivables/aging", async (request) => {
    const query = request.query as Query;
    return {
      data: await getAgingReport(
        db,
        { asOf: query.asOf, clientId: query.clientId, limit: number(query.limit, 50), offset: number(query.offset, 0) },
        settings,
      ),
    };
  });
  app.get("/api/billing/clients/:client/statement-of-account", async (request) => {
    const { client } = request.params as { client: string };
    const query = request.query as Query;
    return {
      data: await getStatementOfAccount(db, client, { from: query.from as string, to: query.to as string }, settings),
    };
  });

  const stop = async () => {
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once("SIGTERM", () => void stop());
  process.once("SIGINT", () => void stop());
  await app.listen({ port: Number(process.env.PORT ?? 0), host: "127.0.0.1" });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
