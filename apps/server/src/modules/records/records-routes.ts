import { type RecordKind, type RecordRouteName, type RouteDefinition, recordRoutesTable } from "@vigil/contract";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { Config } from "../../config.js";
import type { Db } from "../../db/client.js";
import { actorOf } from "../../http/actor.js";
import type { Principal } from "../../http/principal.js";
import { registerRoute } from "../../http/register-route.js";
import type { InterpretationSignedHook, RecordListQuery, RecordsContext, RevisionRequest } from "./record-types.js";
import { createRecord, getRecordHistory, listRecords, recordUserOf, reviseRecord } from "./records-service.js";

type Names = { list: RecordRouteName; create: RecordRouteName; revise: RecordRouteName; history: RecordRouteName };

const kinds: [RecordKind, Names][] = [
  [
    "interpretation",
    {
      list: "listInterpretations",
      create: "createInterpretation",
      revise: "reviseInterpretation",
      history: "getInterpretationHistory",
    },
  ],
  [
    "impedance",
    { list: "listImpedances", create: "createImpedance", revise: "reviseImpedance", history: "getImpedanceHistory" },
  ],
  ["event", { list: "listEvents", create: "createEvent", revise: "reviseEvent", history: "getEventHistory" }],
  [
    "time-log",
    { list: "listTimeLogs", create: "createTimeLog", revise: "reviseTimeLog", history: "getTimeLogHistory" },
  ],
  [
    "case-note",
    { list: "listCaseNotes", create: "createCaseNote", revise: "reviseCaseNote", history: "getCaseNoteHistory" },
  ],
  [
    "billing-note",
    {
      list: "listBillingNotes",
      create: "createBillingNote",
      revise: "reviseBillingNote",
      history: "getBillingNoteHistory",
    },
  ],
];

type ItemParams = { id: string; itemId: string };

/**
 * Per-case records (PRODUCT.md §4): the four calls of each kind plus clock-out through `time-logs/latest`. The six
 * kinds share one service, so their routes are registered from one list; the contract's schemas have already
 * validated params, query and body (the casts only name what they promise). Patient details are the cases
 * module's (cases-routes.ts). `onInterpretationSigned` (reports) runs in every signing's and addendum's transaction.
 */
export function registerRecordRoutes(
  app: FastifyInstance,
  db: Db,
  config: Config,
  hooks: { onInterpretationSigned?: InterpretationSignedHook } = {},
): void {
  const ctx: RecordsContext = { db, caps: config.technologistCaps, ...hooks };
  const table = recordRoutesTable as Record<RecordRouteName, RouteDefinition & { response: z.ZodType }>;
  const writer = (principal: Principal, request: FastifyRequest) =>
    recordUserOf(db, actorOf(principal, request), principal.permissions);

  for (const [kind, names] of kinds) {
    registerRoute(app, names.list, table[names.list], ({ params, query, principal }) =>
      listRecords(ctx, kind, (params as { id: string }).id, query as RecordListQuery, principal),
    );
    registerRoute(app, names.create, table[names.create], async ({ params, body, principal, request }) =>
      createRecord(ctx, kind, (params as { id: string }).id, body, await writer(principal, request)),
    );
    registerRoute(app, names.revise, table[names.revise], async ({ params, body, principal, request }) => {
      const { id, itemId } = params as ItemParams;
      return reviseRecord(ctx, kind, id, { itemId }, body as RevisionRequest, await writer(principal, request));
    });
    registerRoute(app, names.history, table[names.history], ({ params }) => {
      const { id, itemId } = params as ItemParams;
      return getRecordHistory(ctx, kind, id, itemId);
    });
  }

  registerRoute(
    app,
    "reviseLatestTimeLog",
    recordRoutesTable.reviseLatestTimeLog,
    async ({ params, body, principal, request }) =>
      reviseRecord(
        ctx,
        "time-log",
        params.id,
        { latestOfCaller: true },
        body as RevisionRequest,
        await writer(principal, request),
      ) as Promise<z.input<typeof recordRoutesTable.reviseLatestTimeLog.response>>,
  );
}
