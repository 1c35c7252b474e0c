import Fastify, { type FastifyInstance, type FastifyServerOptions } from "fastify";
import { validatorCompiler } from "fastify-type-provider-zod";
import type { Config } from "./config.js";
import type { Database } from "./db/client.js";
import { createCaseEventHub } from "./events/case-event-hub.js";
import { caseEventsChannel } from "./events/case-events.js";
import { startNotificationListener } from "./events/notification-listener.js";
import { registerJsonBodyParser } from "./http/json-body.js";
import type { Metrics } from "./http/metrics.js";
import { registerNoStore } from "./http/no-store.js";
import { registerPatientDataAudit } from "./http/patient-data-audit.js";
import { registerRequestId } from "./http/request-id.js";
import { serializeResponse } from "./http/response-serializer.js";
import { registerSecurityHeaders } from "./http/security-headers.js";
import { serverTimeouts } from "./http/server-timeouts.js";
import { CognitoService } from "./identity/cognito-service.js";
import { hostedUiConnectSources } from "./identity/federation/hosted-ui-policy.js";
import { hostedUiRoutes, registerHostedUiRoutes } from "./identity/federation/hosted-ui-routes.js";
import { registerIdentityRoutes } from "./identity/identity-routes.js";
import { connectSessionCache } from "./identity/session-cache.js";
import { registerSessionChangeEchoes } from "./identity/session-change-echoes.js";
import { sessionChangesChannel } from "./identity/session-changes.js";
import { TokenService } from "./identity/token-service.js";
import { readJobHealth } from "./jobs/job-health.js";
import { jobsChannel } from "./jobs/job-queue.js";
import { startJobRunner } from "./jobs/job-runner.js";
import { MessageService } from "./messaging/message-service.js";
import { auditRetentionJob } from "./modules/audit/audit-retention-job.js";
import { registerAuditRoutes } from "./modules/audit/audit-routes.js";
import { billingCheckFailure, checkCaseBilling } from "./modules/billing/billing-check-service.js";
import { registerBillingExportRoutes } from "./modules/billing/billing-exports-routes.js";
import { registerBillingRoutes } from "./modules/billing/billing-routes.js";
import { billingSettingsOf } from "./modules/billing/billing-service.js";
import { invoiceRemindersJob, recheckingReminders } from "./modules/billing/invoice-reminders.js";
import { invoiceSendingJob } from "./modules/billing/invoice-sending-job.js";
import { registerInvoiceSendingRoutes } from "./modules/billing/invoice-sending-routes.js";
import { registerBugRoutes } from "./modules/bugs/bugs-routes.js";
import type { CaseDependencies } from "./modules/cases/case-dependencies.js";
import { registerCaseRoutes } from "./modules/cases/cases-routes.js";
import { registerChromeRoutes } from "./modules/chrome/chrome-routes.js";
import { registerClientRoutes } from "./modules/clients/clients-routes.js";
import { registerEventRoutes } from "./modules/events/events-routes.js";
import { fhirPushJob } from "./modules/fhir/fhir-push-job.js";
import { fhirPushInfrastructureRoutes, registerFhirPushRoutes } from "./modules/fhir/fhir-push-routes.js";
import { queueFhirPush } from "./modules/fhir/fhir-push-service.js";
import { reportFhirBuilder } from "./modules/fhir/fhir-read-service.js";
import { registerFhirEndpoint, smartInfrastructureRoutes } from "./modules/fhir/fhir-routes.js";
import { registerSmartClientRoutes } from "./modules/fhir/smart-client-routes.js";
import { findingJobs } from "./modules/findings/finding-jobs.js";
import { createFindingsContext, type FindingsContext } from "./modules/findings/findings-context.js";
import { registerFindingRoutes } from "./modules/findings/findings-routes.js";
import { registerIntegrationRoutes } from "./modules/integration/integration-routes.js";
import { hl7LogRetentionJob } from "./modules/interfaces/message-log-retention-job.js";
import { registerMessageLogRoutes } from "./modules/interfaces/message-log-routes.js";
import { orderStatusOnMilestone } from "./modules/interfaces/order-status-service.js";
import { defaultOutboundTimeouts, resultOutbound } from "./modules/interfaces/outbound-service.js";
import { registerProfileRoutes } from "./modules/interfaces/profile-routes.js";
import { resultJob } from "./modules/interfaces/result-job.js";
import { clockAlertSweepJob } from "./modules/notifications/clock-alert-sweep-job.js";
import { registerNotificationRoutes } from "./modules/notifications/notifications-routes.js";
import { findBillableLogsOutsidePeriod } from "./modules/records/monitoring-period-service.js";
import { registerRecordRoutes } from "./modules/records/records-routes.js";
import { hasSignedInterpretation } from "./modules/records/records-service.js";
import { reportDeliveryJob } from "./modules/reports/report-delivery-job.js";
import { withdrawReportLinks } from "./modules/reports/report-link-voids.js";
import { registerReportRoutes } from "./modules/reports/reports-routes.js";
import { type ReportOutbound, type ReportsContext, reportIssuer } from "./modules/reports/reports-service.js";
import { registerSystemRoutes } from "./modules/system/system-routes.js";
import { registerUserRoutes } from "./modules/users/users-routes.js";
import { registerServiceLevelRoutes } from "./modules/watch/service-level-routes.js";
import { registerWatchRoutes } from "./modules/watch/watch-routes.js";
import { createAuthenticator } from "./plugins/authenticate.js";
import { answerClientError, answerFrameworkError, registerEnvelope } from "./plugins/envelope.js";
import { metricsPath, registerMetrics } from "./plugins/metrics.js";
import { registerOpenApi } from "./plugins/openapi.js";
import { readBuildInfo, registerWebApp } from "./plugins/web-app.js";

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: FastifyServerOptions["logger"];
  /** Extra message transports (e.g. a test SMS gateway); SMTP and the SMS webhook come from configuration. */
  transports?: ConstructorParameters<typeof MessageService>[3];
  /**
   * Run this instance's job runner (jobs/job-runner.ts): the registered kinds' jobs (a finding's messages and
   * escalations among them), and the recurring ones (the clock-alert sweep every WATCH_ALERT_SWEEP_SECONDS, the
   * findings' sweep every FINDING_WORKER_SECONDS, the audit log's retention once a day). The server does; API tests
   * call the work themselves (`runFindingWork`, the sweep's pass, `pruneAuditEvents`) at the moment they choose.
   */
  runJobs?: boolean;
};

/**
 * Routes outside the contract's `/api` table, each public for a reason: the identity protocol and its
 * discovery documents (tokens are obtained there), the API description, the static web app, and the operators'
 * metrics (guarded by their own token, METRICS_TOKEN, not a user's).
 * The authorization-matrix test fails on any registered route that is neither here nor in the table.
 */
export const infrastructureRoutes = [
  "POST /cognito",
  "POST /cognito/",
  "GET /.well-known/jwks.json",
  "GET /.well-known/openid-configuration",
  "GET /api/openapi.json",
  "GET /api/docs",
  "GET /api/docs/json",
  "GET /api/docs/yaml",
  "GET /api/docs/static/index.html",
  "GET /api/docs/static/swagger-initializer.js",
  "GET /api/docs/static/*",
  "GET /*",
  "GET /",
  `GET ${metricsPath}`,
  ...hostedUiRoutes,
  ...smartInfrastructureRoutes,
  ...fhirPushInfrastructureRoutes,
] as const;

/** The HL7 result's hook, and after it the version's FHIR push when the client's push is on. */
function withFhirPush(outbound: ReportOutbound, sendingFacility: string): ReportOutbound {
  // biome-ignore lint/plugin/leading-spread-then-keys: this hook wraps the outbound's own
  return {
    ...outbound,
    onReportVersionIssued: async (tx, issued) => {
      await outbound.onReportVersionIssued(tx, issued);
      await queueFhirPush({ sendingFacility }, tx, issued);
    },
  };
}

/**
 * What the case workflow asks of the modules built on cases: records answer `final-interpretation-signed` and which
 * billable logs a new recording period would leave outside; billing answers `billing-check-passed` with the
 * configured caps, CPT rules and currency; interfaces tell the hospital's order that monitoring started or the case
 * was archived.
 */
export function caseDependenciesOf(
  config: Pick<Config, "technologistCaps" | "cptRules" | "currency" | "hl7">,
): CaseDependencies {
  const billing = billingSettingsOf(config);
  return {
    hasSignedInterpretation,
    billingCheckFailure: async (db, caseRow, now) =>
      billingCheckFailure(await checkCaseBilling(db, caseRow, now, billing)),
    findBillableLogsOutsidePeriod,
    onCaseMilestone: orderStatusOnMilestone({ sendingFacility: config.hl7.sendingFacility }),
  };
}

/** Builds the whole application without listening: tests `inject` into the same app the server runs. */
declare module "fastify" {
  interface FastifyInstance {
    registeredRoutes: string[];
    messages: MessageService;
    /** The critical findings' services and worker share this; tests run the worker's passes through it. */
    findings: FindingsContext;
    /**
     * The operators' metrics when METRICS_TOKEN is set (else undefined): background jobs report their queues through
     * `watchJobQueue` and `countJobFailure`.
     */
    metrics: Metrics | undefined;
  }
}

export async function buildApp({
  config,
  database,
  logger,
  transports,
  runJobs = false,
}: AppOptions): Promise<FastifyInstance> {
  const buildInfo = readBuildInfo(config.webDistDir);
  const enoch = config.releaseId ?? buildInfo?.buildId ?? `dev-${Date.now().toString(36)}`;
  const timeouts = serverTimeouts(config);
  const app = Fastify({
    // Lines logged while a request is served carry its id (`reqId`), whichever logger wrote them.
    logger: logger ?? { level: config.logLevel },
    // A hop count means "the nearest n proxies", which Fastify's types only accept as a function.
    trustProxy:
      typeof config.trustProxy === "number"
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Cognito clients send large-ish JSON; API payloads are small. Anything bigger is refused with 413.
    bodyLimit: 1_048_576,
    // Path parameters are ids and usernames, which the contract allows up to 128 characters (as Cognito does). The
    // router's default of 100 turned GET /api/users/{a 101–128 character username} into a bare 414 (found by
    // reliability/route-fuzzing.test.ts).
    routerOptions: { maxParamLength: 128 },
    // The router's own refusals (a malformed %-escape, an over-long path segment) happen before any route runs and
    // were answered in Fastify's shape, not the API's envelope (found by the same test).
    frameworkErrors: answerFrameworkError,
    // A request whose body never finishes is answered 408 (in the envelope) within REQUEST_TIMEOUT_SECONDS; Fastify
    // passes `requestTimeout` to Node itself, so it must be given here as well as in the server's options.
    requestTimeout: timeouts.requestTimeout,
    http: timeouts,
    clientErrorHandler: answerClientError(enoch),
    genReqId: () => crypto.randomUUID(),
  });
  // Every route as the router sees it, for the authorization-matrix test and start-up diagnostics.
  const registeredRoutes: string[] = [];
  app.decorate("registeredRoutes", registeredRoutes);
  registerRequestId(app);
  app.addHook("onRoute", (route) => {
    for (const method of [route.method].flat()) {
      if (method !== "HEAD" && method !== "OPTIONS") registeredRoutes.push(`${method} ${route.url}`);
    }
  });
  registerJsonBodyParser(app);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializeResponse);

  app.decorate("enoch", enoch);

  const tokens = new TokenService(database.db, config);
  await tokens.ensureSigningKey();
  // One LISTEN connection per instance, for the live case events and for the session cache behind every API call.
  // The job runner is woken through it too (jobsChannel), rather than by a connection of its own.
  const listener = await startNotificationListener(
    database,
    [caseEventsChannel, sessionChangesChannel, jobsChannel],
    app.log,
  );
  app.addHook("onClose", () => listener.close());
  const sessions = connectSessionCache(listener, app.log);
  app.addHook("onClose", async () => sessions.close());
  registerSessionChangeEchoes(app, sessions);
  app.decorate("authenticate", createAuthenticator(database.db, tokens, sessions));
  app.decorateRequest("principal", undefined);

  registerEnvelope(app);
  registerNoStore(app);
  const caseEvents = createCaseEventHub(listener, app.log);
  // Before every other route, so the metrics' onResponse hook counts them all.
  app.decorate(
    "metrics",
    registerMetrics(app, config.metricsToken, {
      eventStreams: () => caseEvents.subscriberCount(),
      poolUse: database.poolUse,
    }),
  );
  await registerSecurityHeaders(app, {
    https: config.publicUrl.startsWith("https://"),
    connectSources: [
      ...hostedUiConnectSources(config.publicUrl, config.federation),
      ...(config.userPoolEndpoint ? [new URL(config.userPoolEndpoint).origin] : []),
    ],
  });
  await registerOpenApi(app, enoch);

  const messages = new MessageService(database.db, config.messaging, app.log, transports);
  app.decorate("messages", messages);

  registerIdentityRoutes(app, new CognitoService(database.db, config, tokens, messages, app.log), tokens);
  registerHostedUiRoutes(app, database.db, config, tokens);
  registerSystemRoutes(app, database, config);
  registerChromeRoutes(app, database.db);
  registerPatientDataAudit(app, database.db);
  // Clients sit below reports: a contact's removal or new address voids their unused report links through this hook.
  registerClientRoutes(app, database.db, { onContactsWithdrawn: withdrawReportLinks });
  registerCaseRoutes(app, database.db, caseDependenciesOf(config));
  // Reports sit above records: records hands each signing and addendum to them through this hook.
  const reports: ReportsContext = {
    db: database.db,
    messages,
    publicUrl: config.publicUrl,
    linkHours: config.reports.linkHours,
    delivery: config.reports.delivery,
    linkLimits: config.identityLimits,
    company: { name: config.reports.companyName, details: config.reports.companyDetails },
    caps: config.technologistCaps,
    // The fhir module sits above reports: the staff route's DiagnosticReport is the hospitals' FHIR API's own mapping.
    fhirReport: reportFhirBuilder({
      publicUrl: config.publicUrl,
      company: { name: config.reports.companyName, npi: config.reports.companyNpi },
    }),
    // Interfaces and fhir sit above reports: each issued version's HL7 result and FHIR push are queued in its
    // signing transaction.
    outbound: withFhirPush(resultOutbound({ sendingFacility: config.hl7.sendingFacility }), config.hl7.sendingFacility),
  };
  registerRecordRoutes(app, database.db, config, { onInterpretationSigned: reportIssuer(reports) });
  registerReportRoutes(app, reports);
  registerUserRoutes(app, database.db, config);
  registerAuditRoutes(app, database.db);
  registerBillingRoutes(app, database.db, config);
  registerInvoiceSendingRoutes(app, database.db, { linkLimits: config.identityLimits });
  registerBillingExportRoutes(app, database.db);
  registerMessageLogRoutes(app, database.db);
  registerProfileRoutes(app, database.db, { sendingFacility: config.hl7.sendingFacility });
  registerSmartClientRoutes(app, database.db);
  registerFhirPushRoutes(app, database.db, { publicUrl: config.publicUrl });
  await registerFhirEndpoint(app, database.db, {
    publicUrl: config.publicUrl,
    softwareVersion: enoch,
    company: { name: config.reports.companyName, npi: config.reports.companyNpi },
  });
  // The job kinds: one line each (docs/design/JOBS.md).
  const findings = await createFindingsContext(database.db, config, messages);
  const jobKinds = [
    clockAlertSweepJob(config, messages),
    ...findingJobs(findings),
    auditRetentionJob(config.audit),
    reportDeliveryJob(reports),
    recheckingReminders(
      invoiceSendingJob({ messages, publicUrl: config.publicUrl, linkHours: config.reports.linkHours }),
    ),
    invoiceRemindersJob(),
    resultJob({ sendingFacility: config.hl7.sendingFacility, ...defaultOutboundTimeouts }),
    hl7LogRetentionJob({ logDays: config.hl7.logDays }),
    fhirPushJob({
      publicUrl: config.publicUrl,
      company: { name: config.reports.companyName, npi: config.reports.companyNpi },
      sendingFacility: config.hl7.sendingFacility,
      requestTimeoutMs: 30_000,
    }),
  ];
  registerIntegrationRoutes(app, database, config, { tokens, messages, jobKinds });
  // Read at each scrape: the queue is the database's, so every instance reports the same numbers (kinds, no ids).
  app.metrics?.watchJobQueue(async () =>
    (await readJobHealth(database.db, jobKinds, new Date())).map((health) => ({
      kind: health.kind,
      depth: health.waiting,
      oldestAgeSeconds: (health.oldestWaitingMs ?? 0) / 1000,
    })),
  );
  registerBugRoutes(app, database.db, config);
  registerWatchRoutes(app, database.db, config);
  registerServiceLevelRoutes(app, database.db);
  registerEventRoutes(app, database.db, caseEvents, sessions);
  registerNotificationRoutes(app, database.db);
  app.decorate("findings", findings);
  registerFindingRoutes(app, findings);
  if (runJobs) {
    const runner = startJobRunner(database, jobKinds, app.log, {
      wakeUps: listener,
      onFailure: (kind) => app.metrics?.countJobFailure(kind),
    });
    app.addHook("onClose", () => runner.stop());
  }

  await registerWebApp(app, config.webDistDir);
  return app;
}
