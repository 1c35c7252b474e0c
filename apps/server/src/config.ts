import path from "node:path";
import { fileURLToPath } from "node:url";
import { npiSchema } from "@vigil/contract";
import { z } from "zod";
import {
  checkFederationEnv,
  type FederationConfig,
  federationEnvShape,
  type HttpsListenerConfig,
  resolveFederationConfig,
} from "./config-federation.js";

/**
 * Configuration, validated once at start. Nothing else reads process.env, so every knob is listed here and in
 * the README.
 */
const booleanFromEnv = z
  .enum(["true", "false", "1", "0", "yes", "no"])
  .transform((value) => value === "true" || value === "1" || value === "yes");

/**
 * An ISO 4217 code the runtime knows (`Intl.supportedValuesOf("currency")`), upper case. Amounts are computed and
 * stored to the cent, so a currency whose minor unit is not 2 digits (JPY: 0, KWD: 3) is refused rather than
 * printed with cents it does not have or without fils it needs.
 */
const currencySchema = z
  .string()
  .trim()
  .regex(/^[A-Z]{3}$/, "must be an ISO 4217 code in capitals, such as USD or EUR")
  .superRefine((code, context) => {
    if (!/^[A-Z]{3}$/.test(code)) return; // said above; Intl would throw on a malformed code
    if (!Intl.supportedValuesOf("currency").includes(code)) {
      context.addIssue({ code: "custom", message: "is not an ISO 4217 currency code" });
    } else if (
      new Intl.NumberFormat("en", { style: "currency", currency: code }).resolvedOptions().maximumFractionDigits !== 2
    ) {
      context.addIssue({
        code: "custom",
        message: "must be a currency with 2 decimal places (amounts are computed to the cent)",
      });
    }
  });

const configSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default("0.0.0.0"),
  /** Where the embedded database lives when DATABASE_URL is not set. */
  DATA_DIR: z.string().default("./data"),
  /**
   * Where the embedded database runs: `worker`, a thread of its own (its statements off the event loop), or `main`,
   * the server's thread; unset: db/client.ts's default (docs/operations.md, "PGlite on its own thread").
   */
  PGLITE_THREAD: z.enum(["worker", "main"]).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, "DATABASE_URL must be a postgres:// URL")
    .optional(),
  /** The origin users reach Vigil at; the token issuer and the identity endpoint derive from it. */
  PUBLIC_URL: z.url().optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /**
   * The bearer token a Prometheus scraper sends to read `GET /metrics` (plugins/metrics.ts); unset, the route answers
   * 404 and nothing is measured. Long and random (`openssl rand -hex 32`), since it is the route's only guard.
   */
  METRICS_TOKEN: z
    .string()
    .min(32, "METRICS_TOKEN must be at least 32 characters (openssl rand -hex 32)")
    .regex(/^[\x21-\x7e]+$/, "METRICS_TOKEN must be printable ASCII without spaces (it is sent in a header)")
    .optional(),
  /** Release id sent as `enoch`; defaults to the web build's id. */
  RELEASE_ID: z.string().min(1).optional(),
  WEB_DIST_DIR: z.string().optional(),
  /** The catalogue of the product's own tests that `npm test` writes (scripts/test-catalogue.mjs), served read-only. */
  TEST_CATALOGUE_FILE: z.string().optional(),
  // Down to one minute, so a test can let tokens expire for real and watch the web app refresh them.
  ID_TOKEN_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  ACCESS_TOKEN_MINUTES: z.coerce.number().int().min(1).max(1440).default(60),
  /** How long a sign-in lasts; decimals allowed (0.05 = 3 minutes), at least one minute. */
  REFRESH_TOKEN_HOURS: z.coerce
    .number()
    .min(1 / 60, "REFRESH_TOKEN_HOURS must be at least one minute (0.017)")
    .max(24 * 3650)
    .default(12),
  SIGNING_KEY_ROTATION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  PASSWORD_MIN_LENGTH: z.coerce.number().int().min(8).max(256).default(12),
  PASSWORD_REQUIRE_LOWERCASE: booleanFromEnv.default(false),
  PASSWORD_REQUIRE_UPPERCASE: booleanFromEnv.default(false),
  PASSWORD_REQUIRE_NUMBERS: booleanFromEnv.default(false),
  PASSWORD_REQUIRE_SYMBOLS: booleanFromEnv.default(false),
  MFA_MODE: z.enum(["OFF", "OPTIONAL", "ON"]).default("OPTIONAL"),
  /** The issuer name of TOTP codes; the web's Authenticator puts it in the QR code it draws. */
  TOTP_ISSUER: z.string().trim().min(1).max(64).default("AWSCognito"),
  /** Unauthenticated identity operations (sign-in, challenges, reset) per client IP per window. */
  IDENTITY_REQUESTS_PER_IP: z.coerce.number().int().min(1).default(600),
  IDENTITY_IP_WINDOW_SECONDS: z.coerce.number().int().min(1).max(3600).default(60),
  /** Password-reset (and attribute) code requests, and code confirmations, per user per hour. */
  RESET_CODE_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).default(5),
  RESET_CODE_CONFIRMATIONS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  USER_POOL_ID: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, "USER_POOL_ID must look like <region>_<id>")
    .default("local-1_vigil"),
  USER_POOL_CLIENT_ID: z.string().min(1).default("vigilweb0000000000000000000"),
  /**
   * The identity endpoint the web app calls when it is not this server's own `/cognito` (e.g. a real Cognito
   * user pool); its origin is then allowed in the CSP's connect-src. Unset: the page calls `/cognito` on
   * whatever origin it was loaded from.
   */
  USER_POOL_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
  /** `smtp://user:password@host:587` or `smtps://…`; without it, mail lands in the outbox table and the log. */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, "SMTP_URL must be an smtp:// or smtps:// URL")
    .optional(),
  MAIL_FROM: z.string().min(3).default("Vigil <no-reply@vigil.localhost>"),
  /** An HTTPS endpoint that receives `{ to, body }` for each SMS; without it, SMS land in the outbox. */
  SMS_WEBHOOK_URL: z.url().optional(),
  /**
   * Which proxies may tell us the client's address (X-Forwarded-For), which the per-IP throttle and the audit
   * log use: `false` (default: nobody — direct exposure), `true` (any; only behind a proxy that overwrites the
   * header), a hop count, or comma-separated addresses/CIDRs of the proxies.
   */
  TRUST_PROXY: z.string().default("false"),
  /**
   * How long a client may take to send a whole request (headers and body). A client that stops halfway is answered
   * 408 and disconnected instead of holding a connection open for minutes; uploads here are at most 1 MB.
   */
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  /**
   * Most patients one technologist may monitor at once per mode (DOMAIN.md §2.3): 12 intermittent is sourced; the
   * continuous cap of 4 is recalled, not confirmed, hence configuration. Time logs over a cap are flagged.
   */
  TECHNOLOGIST_CAP_INTERMITTENT: z.coerce.number().int().min(1).max(1000).default(12),
  TECHNOLOGIST_CAP_CONTINUOUS: z.coerce.number().int().min(1).max(1000).default(4),
  /**
   * CPT rules DOMAIN.md §2.3 marks as recalled, not confirmed ([R]), so they are configuration: whether the final
   * 2–12 h segment of a multi-day study takes the 2–12 h code, and whether the professional component is suggested
   * as one complete-study summary once a study is over 36 h (95721–95726) or as daily reports (95719/95720).
   */
  CPT_FINAL_PARTIAL_SEGMENT_SHORT_CODE: booleanFromEnv.default(true),
  CPT_PROFESSIONAL_REPORTING: z.enum(["summary-over-36h", "daily"]).default("summary-over-36h"),
  /** The ISO 4217 currency of rates and amounts (statements, overview, CSV); see currencySchema. */
  CURRENCY: currencySchema.default("USD"),
  /** A running service clock is "due soon" once no more than this share of its window is left (PRODUCT.md §10). */
  WATCH_DUE_SOON_SHARE: z.coerce.number().gt(0).lt(1).default(0.25),
  /**
   * How often each instance looks for clocks that turned due soon or overdue and tells their owners (seconds; 0: this
   * instance never sweeps). Instances may all sweep: the alerts' unique key lets one of them tell each owner once.
   */
  WATCH_ALERT_SWEEP_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  /**
   * Critical findings (PRODUCT.md §11). How long an acknowledgement link works (hours; decimals allowed, at least a
   * minute).
   */
  FINDING_LINK_HOURS: z.coerce
    .number()
    .min(1 / 60, "FINDING_LINK_HOURS must be at least one minute (0.017)")
    .max(24 * 30)
    .default(24),
  /**
   * After the protocol's window ran out unacknowledged, how often the next escalation follows (minutes; decimals
   * allowed, so a test can escalate every few seconds).
   */
  FINDING_ESCALATION_MINUTES: z.coerce.number().min(0.01).max(1440).default(10),
  /** Attempts of one message (email or SMS) before it is marked failed; retried with back-off in between. */
  FINDING_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(6),
  /**
   * How often the findings' sweep job looks for due escalations and messages no job points at (seconds; decimals
   * allowed; 0: no sweep). A safety net: messages and escalations are jobs of their own, enqueued when written and
   * run at once or at their due time, so a minute's delay is enough and spares the queue ~17,000 jobs a day.
   */
  FINDING_WORKER_SECONDS: z.coerce.number().min(0).max(3600).default(60),
  /** Whether finding messages name the patient (name and MRN); off by default: SMS and e-mail leave the building. */
  FINDING_MESSAGES_INCLUDE_PATIENT: booleanFromEnv.default(false),
  /**
   * The EEG monitoring team's phone number, shown on the acknowledgement page and in the findings' messages so the
   * hospital's physician can call (empty: none shown).
   */
  FINDING_TEAM_PHONE: z.string().trim().max(40).default(""),
  /**
   * Signed reports: how long a report's download link works (hours; decimals allowed, at least a minute). Each link
   * works once; staff re-send for a new one.
   */
  REPORT_LINK_HOURS: z.coerce
    .number()
    .min(1 / 60, "REPORT_LINK_HOURS must be at least one minute (0.017)")
    .max(24 * 30)
    .default(72),
  /**
   * How long after a signing its report e-mails' jobs wait before they send what the signing request's own try left
   * pending (seconds; decimals allowed). Longer than any SMTP try, so a job rarely races that try
   * (docs/design/REPORTS.md); tests shorten it.
   */
  REPORT_DELIVERY_GRACE_SECONDS: z.coerce.number().min(0).max(3600).default(120),
  /** Tries of one report e-mail's job before the delivery is marked failed (Retry on the integration page). */
  REPORT_DELIVERY_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The wait after a report e-mail's first failed try (seconds; decimals allowed), doubling up to 30 minutes. */
  REPORT_DELIVERY_RETRY_SECONDS: z.coerce.number().min(0.1).max(1800).default(30),
  /** The monitoring company as every report names it at its head (and as the FHIR performer). */
  REPORT_COMPANY_NAME: z.string().trim().min(1).max(200).default("Vigil Neurodiagnostics"),
  /** A line under the company's name on reports: address, phone (optional). */
  REPORT_COMPANY_DETAILS: z.string().trim().max(500).default(""),
  /**
   * The company's own NPI (an organisation's, type 2), optional: the identifier of the performer and custodian in
   * the FHIR resources hospitals read and are sent. Checked like a user's NPI.
   */
  REPORT_COMPANY_NPI: z.union([z.literal(""), npiSchema]).default(""),
  /**
   * How long the audit log keeps an event, in days (default 2190: six years, what HIPAA §164.316(b)(2) asks of
   * documentation). Older events are written to AUDIT_ARCHIVE_DIR first and only then deleted, once a day by one
   * instance (audit/audit-retention.ts), or by `npm run audit:archive`.
   */
  AUDIT_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(2190),
  /** Where pruned audit events are archived (gzip'd NDJSON files); default DATA_DIR/audit-archive. */
  AUDIT_ARCHIVE_DIR: z.string().optional(),
  /** The HL7 v2 (MLLP) listener's port; unset, no listener (docs/design/HL7.md). 0 picks a free port (tests). */
  HL7_MLLP_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  HL7_MLLP_HOST: z.string().trim().min(1).default("0.0.0.0"),
  /** PEM files: with cert and key the listener speaks TLS; with a CA too, it asks each sender for a certificate it signed. */
  HL7_MLLP_TLS_CERT: z.string().optional(),
  HL7_MLLP_TLS_KEY: z.string().optional(),
  HL7_MLLP_TLS_CA: z.string().optional(),
  /**
   * The largest message the listener takes, in bytes (default 16 MiB). A result carries its PDF as base64 in OBX-5
   * (a third larger than the file), and an EEG report with figures runs to several MB; past the limit only the
   * head is kept, to answer AR.
   */
  HL7_MLLP_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(64 * 1024, "HL7_MLLP_MAX_BYTES must be at least 65536")
    .max(256 * 1024 * 1024)
    .default(16 * 1024 * 1024),
  /**
   * A connection with nothing arriving for this long is closed (seconds). Under the 350 s after which AWS's network
   * load balancer drops an idle flow, so the listener closes it cleanly first; the sender reconnects.
   */
  HL7_MLLP_IDLE_SECONDS: z.coerce.number().min(0.1).max(86_400).default(300),
  /** How long the HL7 message log keeps a message, in days. */
  HL7_LOG_DAYS: z.coerce.number().int().min(1).max(36_500).default(90),
  /**
   * MSH-4 of every message Vigil sends (MSH-3 is always VIGIL): the facility the hospital's engine knows this
   * service by. One HL7 component: none of | ^ ~ \\ & and no line breaks.
   */
  HL7_SENDING_FACILITY: z
    .string()
    .trim()
    .min(1)
    .max(180)
    .regex(/^[^|^~\\&\r\n\t]+$/, "HL7_SENDING_FACILITY must not contain | ^ ~ \\ & or line breaks")
    .default("VIGIL"),
  /** `demo` seeds clients, cases and one user per group into an empty database; `none` seeds nothing. */
  SEED: z.enum(["demo", "none"]).default("demo"),
  /** Federated sign-in through the hosted UI: see config-federation.ts. */
  ...federationEnvShape,
});

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Where PGlite runs (PGLITE_THREAD); undefined: db/client.ts's default. */
  pgliteThread: "worker" | "main" | undefined;
  publicUrl: string;
  logLevel: z.infer<typeof configSchema>["LOG_LEVEL"];
  /** The bearer token of `GET /metrics` (METRICS_TOKEN); undefined: no metrics. */
  metricsToken: string | undefined;
  releaseId: string | undefined;
  webDistDir: string;
  /** Where the last test run's catalogue is read from (`GET /api/bugs/unit-tests`). */
  testCatalogueFile: string;
  tokens: { idTokenMinutes: number; accessTokenMinutes: number; refreshTokenHours: number; keyRotationDays: number };
  passwordPolicy: {
    minLength: number;
    requireLowercase: boolean;
    requireUppercase: boolean;
    requireNumbers: boolean;
    requireSpecialCharacters: boolean;
  };
  mfaMode: "OFF" | "OPTIONAL" | "ON";
  totpIssuer: string;
  identityLimits: {
    requestsPerIp: number;
    ipWindowSeconds: number;
    codeRequestsPerHour: number;
    codeConfirmationsPerHour: number;
  };
  userPoolId: string;
  userPoolClientId: string;
  /** An identity endpoint elsewhere than this server (USER_POOL_ENDPOINT); undefined: the page's own `/cognito`. */
  userPoolEndpoint: string | undefined;
  seed: "demo" | "none";
  /** Concurrent patients per technologist and monitoring mode, against which time logs are flagged. */
  technologistCaps: { intermittent: number; continuous: number };
  /** The unconfirmed CPT rules ([R] in DOMAIN.md §2.3) the billing suggestions follow. */
  cptRules: { finalPartialSegmentShortCode: boolean; professionalReporting: "summary-over-36h" | "daily" };
  /** The ISO 4217 code of rates and amounts (CURRENCY); issued statements keep the code they were issued in. */
  currency: string;
  /** The service clocks' settings (WATCH_DUE_SOON_SHARE, WATCH_ALERT_SWEEP_SECONDS; 0 = no sweeps). */
  watch: { dueSoonShare: number; alertSweepSeconds: number };
  /** Critical findings' links, escalation, delivery and worker settings (FINDING_*). */
  findings: {
    linkHours: number;
    escalationMinutes: number;
    deliveryAttempts: number;
    /** 0: this instance runs no worker. */
    workerSeconds: number;
    messagesIncludePatient: boolean;
    /** The monitoring team's number to call; null where none is set. */
    teamPhone: string | null;
  };
  /** Signed reports: the download links' lifetime, the company that issues them, the e-mails' jobs (REPORT_*). */
  reports: {
    linkHours: number;
    companyName: string;
    companyDetails: string;
    /** The company's NPI (REPORT_COMPANY_NPI), null when not set. */
    companyNpi: string | null;
    delivery: { graceMs: number; attempts: number; retryMs: number };
  };
  /** The audit log's retention (AUDIT_RETENTION_DAYS) and where what it prunes is archived first. */
  audit: { retentionDays: number; archiveDir: string };
  trustProxy: boolean | number | string[];
  /** The longest a client may take to send a whole request (REQUEST_TIMEOUT_SECONDS), in milliseconds. */
  requestTimeoutMs: number;
  messaging: { smtpUrl: string | undefined; mailFrom: string; smsWebhookUrl: string | undefined };
  /** Federated sign-in through the hosted UI; undefined when OIDC_ISSUER is not set. */
  federation: FederationConfig | undefined;
  /** A second, HTTPS listener (TLS_CERT_FILE/TLS_KEY_FILE), e.g. for the hosted UI on this machine. */
  httpsListener: HttpsListenerConfig | undefined;
  /** The HL7 v2 interface: the MLLP listener (undefined: off; HL7_MLLP_*) and the message log's retention. */
  hl7: {
    listener:
      | {
          port: number;
          host: string;
          /** Paths of PEM files; `caFile` set: senders must present a certificate it signed. */
          tls: { certFile: string; keyFile: string; caFile: string | undefined } | undefined;
          maxMessageBytes: number;
          idleTimeoutMs: number;
        }
      | undefined;
    logDays: number;
    /** MSH-4 of what Vigil sends (HL7_SENDING_FACILITY). */
    sendingFacility: string;
  };
  /** The folder the command was typed in (INIT_CWD under npm, else the process's): relative paths resolve against it. */
  workingDir: string;
  /**
   * The environment this configuration was read from, for the child processes that inherit it: pg_dump and
   * pg_restore need PATH, HOME (~/.pgpass) and libpq's own PG* defaults, which are not Vigil's settings.
   */
  childEnvironment: Readonly<Record<string, string | undefined>>;
};

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  // An empty variable means "not set" (shells and CI often export VAR= to clear one).
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ""));
  const parsed = configSchema.superRefine(checkFederationEnv).safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join(".")}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  const value = parsed.data;
  // npm runs workspace scripts inside the workspace folder; resolve relative paths against the folder the user
  // typed the command in (INIT_CWD), so `npm start` at the root keeps its data in ./data there.
  const baseDir = present.INIT_CWD ?? process.cwd();
  const publicUrl = (value.PUBLIC_URL ?? `http://localhost:${value.PORT}`).replace(/\/+$/, "");
  return {
    port: value.PORT,
    host: value.HOST,
    dataDir: path.resolve(baseDir, value.DATA_DIR),
    pgliteThread: value.PGLITE_THREAD,
    audit: {
      retentionDays: value.AUDIT_RETENTION_DAYS,
      archiveDir: path.resolve(baseDir, value.AUDIT_ARCHIVE_DIR ?? path.join(value.DATA_DIR, "audit-archive")),
    },
    hl7: readHl7Settings(value, baseDir),
    workingDir: baseDir,
    childEnvironment: { ...env },
    databaseUrl: value.DATABASE_URL,
    publicUrl,
    logLevel: value.LOG_LEVEL,
    metricsToken: value.METRICS_TOKEN,
    releaseId: value.RELEASE_ID,
    webDistDir: value.WEB_DIST_DIR
      ? path.resolve(baseDir, value.WEB_DIST_DIR)
      : new URL("../../web/dist", import.meta.url).pathname,
    testCatalogueFile: value.TEST_CATALOGUE_FILE
      ? path.resolve(baseDir, value.TEST_CATALOGUE_FILE)
      : fileURLToPath(new URL("../../../.test-results/test-catalogue.json", import.meta.url)),
    tokens: {
      idTokenMinutes: value.ID_TOKEN_MINUTES,
      accessTokenMinutes: value.ACCESS_TOKEN_MINUTES,
      refreshTokenHours: value.REFRESH_TOKEN_HOURS,
      keyRotationDays: value.SIGNING_KEY_ROTATION_DAYS,
    },
    passwordPolicy: {
      minLength: value.PASSWORD_MIN_LENGTH,
      requireLowercase: value.PASSWORD_REQUIRE_LOWERCASE,
      requireUppercase: value.PASSWORD_REQUIRE_UPPERCASE,
      requireNumbers: value.PASSWORD_REQUIRE_NUMBERS,
      requireSpecialCharacters: value.PASSWORD_REQUIRE_SYMBOLS,
    },
    mfaMode: value.MFA_MODE,
    totpIssuer: value.TOTP_ISSUER,
    identityLimits: {
      requestsPerIp: value.IDENTITY_REQUESTS_PER_IP,
      ipWindowSeconds: value.IDENTITY_IP_WINDOW_SECONDS,
      codeRequestsPerHour: value.RESET_CODE_REQUESTS_PER_HOUR,
      codeConfirmationsPerHour: value.RESET_CODE_CONFIRMATIONS_PER_HOUR,
    },
    userPoolId: value.USER_POOL_ID,
    userPoolClientId: value.USER_POOL_CLIENT_ID,
    userPoolEndpoint: value.USER_POOL_ENDPOINT,
    seed: value.SEED,
    technologistCaps: {
      intermittent: value.TECHNOLOGIST_CAP_INTERMITTENT,
      continuous: value.TECHNOLOGIST_CAP_CONTINUOUS,
    },
    cptRules: {
      finalPartialSegmentShortCode: value.CPT_FINAL_PARTIAL_SEGMENT_SHORT_CODE,
      professionalReporting: value.CPT_PROFESSIONAL_REPORTING,
    },
    currency: value.CURRENCY,
    watch: { dueSoonShare: value.WATCH_DUE_SOON_SHARE, alertSweepSeconds: value.WATCH_ALERT_SWEEP_SECONDS },
    findings: {
      linkHours: value.FINDING_LINK_HOURS,
      escalationMinutes: value.FINDING_ESCALATION_MINUTES,
      deliveryAttempts: value.FINDING_DELIVERY_ATTEMPTS,
      workerSeconds: value.FINDING_WORKER_SECONDS,
      messagesIncludePatient: value.FINDING_MESSAGES_INCLUDE_PATIENT,
      teamPhone: value.FINDING_TEAM_PHONE || null,
    },
    reports: {
      linkHours: value.REPORT_LINK_HOURS,
      companyName: value.REPORT_COMPANY_NAME,
      companyDetails: value.REPORT_COMPANY_DETAILS,
      companyNpi: value.REPORT_COMPANY_NPI || null,
      delivery: {
        graceMs: Math.round(value.REPORT_DELIVERY_GRACE_SECONDS * 1000),
        attempts: value.REPORT_DELIVERY_ATTEMPTS,
        retryMs: Math.round(value.REPORT_DELIVERY_RETRY_SECONDS * 1000),
      },
    },
    trustProxy: parseTrustProxy(value.TRUST_PROXY),
    requestTimeoutMs: value.REQUEST_TIMEOUT_SECONDS * 1000,
    messaging: { smtpUrl: value.SMTP_URL, mailFrom: value.MAIL_FROM, smsWebhookUrl: value.SMS_WEBHOOK_URL },
    ...resolveFederationConfig(value, publicUrl, baseDir),
  };
}

function readHl7Settings(value: z.infer<typeof configSchema>, baseDir: string): Config["hl7"] {
  const { HL7_MLLP_TLS_CERT: cert, HL7_MLLP_TLS_KEY: key, HL7_MLLP_TLS_CA: ca } = value;
  if ((cert === undefined) !== (key === undefined) || (ca !== undefined && cert === undefined)) {
    throw new ConfigError(
      "Invalid configuration:\n  HL7_MLLP_TLS_CERT: TLS needs both HL7_MLLP_TLS_CERT and HL7_MLLP_TLS_KEY (HL7_MLLP_TLS_CA only with them)",
    );
  }
  const file = (name: string) => path.resolve(baseDir, name);
  return {
    listener:
      value.HL7_MLLP_PORT === undefined
        ? undefined
        : {
            port: value.HL7_MLLP_PORT,
            host: value.HL7_MLLP_HOST,
            tls:
              cert && key ? { certFile: file(cert), keyFile: file(key), caFile: ca ? file(ca) : undefined } : undefined,
            maxMessageBytes: value.HL7_MLLP_MAX_BYTES,
            idleTimeoutMs: Math.round(value.HL7_MLLP_IDLE_SECONDS * 1000),
          },
    logDays: value.HL7_LOG_DAYS,
    sendingFacility: value.HL7_SENDING_FACILITY,
  };
}

function parseTrustProxy(value: string): boolean | number | string[] {
  if (value === "true") return true;
  if (value === "false") return false;
  if (/^\d+$/.test(value)) return Number(value);
  return value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
}
