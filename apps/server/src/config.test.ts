import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

describe("configuration", () => {
  it("has defaults for a first start", () => {
    const config = loadConfig({ INIT_CWD: "/srv/vigil" });
    expect(config.port).toBe(3000);
    expect(config.dataDir).toBe(path.resolve("/srv/vigil/data"));
    expect(config.databaseUrl).toBeUndefined();
    expect(config.publicUrl).toBe("http://localhost:3000");
    expect(config.passwordPolicy.minLength).toBe(12);
    expect(config.mfaMode).toBe("OPTIONAL");
    expect(config.seed).toBe("demo");
  });

  it("resolves a relative DATA_DIR against the folder the command was typed in", () => {
    expect(loadConfig({ INIT_CWD: "/home/ana/vigil", DATA_DIR: "var/db" }).dataDir).toBe("/home/ana/vigil/var/db");
    expect(loadConfig({ INIT_CWD: "/home/ana/vigil", DATA_DIR: "/data/vigil" }).dataDir).toBe("/data/vigil");
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).databaseUrl).toBeUndefined();
  });

  it("derives the public URL from the port and drops a trailing slash", () => {
    expect(loadConfig({ PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ PUBLIC_URL: "https://vigil.example.org/" }).publicUrl).toBe("https://vigil.example.org");
  });

  it("gives a client 30 seconds to send a whole request unless told otherwise, and at least a second", () => {
    expect(loadConfig({}).requestTimeoutMs).toBe(30_000);
    expect(loadConfig({ REQUEST_TIMEOUT_SECONDS: "5" }).requestTimeoutMs).toBe(5_000);
    expect(() => loadConfig({ REQUEST_TIMEOUT_SECONDS: "0" })).toThrow(/REQUEST_TIMEOUT_SECONDS/);
  });

  it("sweeps for clock alerts every 30 seconds unless told otherwise, and never with 0", () => {
    expect(loadConfig({}).watch.alertSweepSeconds).toBe(30);
    expect(loadConfig({ WATCH_ALERT_SWEEP_SECONDS: "2" }).watch.alertSweepSeconds).toBe(2);
    expect(loadConfig({ WATCH_ALERT_SWEEP_SECONDS: "0" }).watch.alertSweepSeconds).toBe(0);
    expect(() => loadConfig({ WATCH_ALERT_SWEEP_SECONDS: "-1" })).toThrow(/WATCH_ALERT_SWEEP_SECONDS/);
    expect(() => loadConfig({ WATCH_ALERT_SWEEP_SECONDS: "1.5" })).toThrow(/WATCH_ALERT_SWEEP_SECONDS/);
  });

  it("has defaults for critical findings and takes decimals where a test needs seconds", () => {
    expect(loadConfig({}).findings).toEqual({
      linkHours: 24,
      escalationMinutes: 10,
      deliveryAttempts: 6,
      workerSeconds: 60,
      messagesIncludePatient: false,
      teamPhone: null,
    });
    expect(
      loadConfig({
        FINDING_LINK_HOURS: "0.5",
        FINDING_ESCALATION_MINUTES: "0.05",
        FINDING_DELIVERY_ATTEMPTS: "3",
        FINDING_WORKER_SECONDS: "0",
        FINDING_MESSAGES_INCLUDE_PATIENT: "true",
        FINDING_TEAM_PHONE: " +1 312 555 0199 ",
      }).findings,
    ).toEqual({
      linkHours: 0.5,
      escalationMinutes: 0.05,
      deliveryAttempts: 3,
      workerSeconds: 0,
      messagesIncludePatient: true,
      teamPhone: "+1 312 555 0199",
    });
    expect(() => loadConfig({ FINDING_LINK_HOURS: "0.001" })).toThrow(/FINDING_LINK_HOURS must be at least one minute/);
    expect(() => loadConfig({ FINDING_ESCALATION_MINUTES: "0" })).toThrow(/FINDING_ESCALATION_MINUTES/);
    expect(() => loadConfig({ FINDING_DELIVERY_ATTEMPTS: "0" })).toThrow(/FINDING_DELIVERY_ATTEMPTS/);
    expect(() => loadConfig({ FINDING_DELIVERY_ATTEMPTS: "2.5" })).toThrow(/FINDING_DELIVERY_ATTEMPTS/);
    expect(() => loadConfig({ FINDING_WORKER_SECONDS: "-1" })).toThrow(/FINDING_WORKER_SECONDS/);
    expect(() => loadConfig({ FINDING_MESSAGES_INCLUDE_PATIENT: "maybe" })).toThrow(/FINDING_MESSAGES_INCLUDE_PATIENT/);
  });

  it("gives report e-mails' jobs a 2-minute grace and 8 tries from 30 s, each settable, and refuses nonsense", () => {
    expect(loadConfig({}).reports.delivery).toEqual({ graceMs: 120_000, attempts: 8, retryMs: 30_000 });
    expect(
      loadConfig({
        REPORT_DELIVERY_GRACE_SECONDS: "0.5",
        REPORT_DELIVERY_ATTEMPTS: "1",
        REPORT_DELIVERY_RETRY_SECONDS: "0.2",
      }).reports.delivery,
    ).toEqual({ graceMs: 500, attempts: 1, retryMs: 200 });
    expect(() => loadConfig({ REPORT_DELIVERY_GRACE_SECONDS: "-1" })).toThrow(/REPORT_DELIVERY_GRACE_SECONDS/);
    expect(() => loadConfig({ REPORT_DELIVERY_GRACE_SECONDS: "soon" })).toThrow(/REPORT_DELIVERY_GRACE_SECONDS/);
    expect(() => loadConfig({ REPORT_DELIVERY_ATTEMPTS: "0" })).toThrow(/REPORT_DELIVERY_ATTEMPTS/);
    expect(() => loadConfig({ REPORT_DELIVERY_ATTEMPTS: "2.5" })).toThrow(/REPORT_DELIVERY_ATTEMPTS/);
    expect(() => loadConfig({ REPORT_DELIVERY_RETRY_SECONDS: "0" })).toThrow(/REPORT_DELIVERY_RETRY_SECONDS/);
  });

  it("starts no HL7 listener unless HL7_MLLP_PORT is set, and speaks TLS only with a certificate and its key", () => {
    expect(loadConfig({}).hl7).toEqual({ listener: undefined, logDays: 90, sendingFacility: "VIGIL" });
    expect(loadConfig({ HL7_MLLP_PORT: "2575" }).hl7.listener).toEqual({
      port: 2575,
      host: "0.0.0.0",
      tls: undefined,
      maxMessageBytes: 16 * 1024 * 1024,
      idleTimeoutMs: 300_000,
    });
    const secure = loadConfig({
      INIT_CWD: "/srv/vigil",
      HL7_MLLP_PORT: "2576",
      HL7_MLLP_TLS_CERT: "tls/mllp.crt",
      HL7_MLLP_TLS_KEY: "/etc/vigil/mllp.key",
      HL7_MLLP_TLS_CA: "tls/hospital-ca.pem",
      HL7_MLLP_MAX_BYTES: "1048576",
      HL7_MLLP_IDLE_SECONDS: "0.5",
      HL7_LOG_DAYS: "30",
      HL7_SENDING_FACILITY: "NEURO-EEG",
    });
    expect(secure.hl7.listener?.tls).toEqual({
      certFile: path.resolve("/srv/vigil/tls/mllp.crt"),
      keyFile: "/etc/vigil/mllp.key",
      caFile: path.resolve("/srv/vigil/tls/hospital-ca.pem"),
    });
    expect(secure.hl7.listener).toMatchObject({ maxMessageBytes: 1_048_576, idleTimeoutMs: 500 });
    expect(secure.hl7.logDays).toBe(30);
    expect(secure.hl7.sendingFacility).toBe("NEURO-EEG");
    expect(loadConfig({}).hl7.sendingFacility).toBe("VIGIL");
    expect(() => loadConfig({ HL7_SENDING_FACILITY: "A^B" })).toThrow(/HL7_SENDING_FACILITY/);
    expect(() => loadConfig({ HL7_MLLP_PORT: "2575", HL7_MLLP_TLS_CERT: "a.crt" })).toThrow(/HL7_MLLP_TLS_KEY/);
    expect(() => loadConfig({ HL7_MLLP_TLS_CA: "ca.pem" })).toThrow(ConfigError);
    // The company's NPI is checked as a user's is: ten digits whose last is the check digit.
    expect(loadConfig({ REPORT_COMPANY_NPI: "1234567893" }).reports.companyNpi).toBe("1234567893");
    expect(loadConfig({}).reports.companyNpi).toBeNull();
    expect(() => loadConfig({ REPORT_COMPANY_NPI: "1234567890" })).toThrow(ConfigError);
    expect(() => loadConfig({ HL7_MLLP_PORT: "70000" })).toThrow(/HL7_MLLP_PORT/);
    expect(() => loadConfig({ HL7_MLLP_MAX_BYTES: "1000" })).toThrow(/HL7_MLLP_MAX_BYTES/);
    expect(() => loadConfig({ HL7_LOG_DAYS: "0" })).toThrow(/HL7_LOG_DAYS/);
  });

  it("trusts no proxy's forwarded address unless told to", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: "true" }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: "1" }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: "10.0.0.0/8, 127.0.0.1" }).trustProxy).toEqual(["10.0.0.0/8", "127.0.0.1"]);
  });

  it("has defaults for the unconfirmed CPT rules and lets each be switched", () => {
    expect(loadConfig({}).cptRules).toEqual({
      finalPartialSegmentShortCode: true,
      professionalReporting: "summary-over-36h",
    });
    expect(
      loadConfig({ CPT_FINAL_PARTIAL_SEGMENT_SHORT_CODE: "false", CPT_PROFESSIONAL_REPORTING: "daily" }).cptRules,
    ).toEqual({ finalPartialSegmentShortCode: false, professionalReporting: "daily" });
    expect(() => loadConfig({ CPT_PROFESSIONAL_REPORTING: "weekly" })).toThrow(/CPT_PROFESSIONAL_REPORTING/);
  });

  it("reads the test catalogue from the repository's .test-results unless told where", () => {
    const repoRoot = path.resolve(import.meta.dirname, "../../..");
    expect(loadConfig({}).testCatalogueFile).toBe(path.join(repoRoot, ".test-results", "test-catalogue.json"));
    expect(loadConfig({ INIT_CWD: "/srv/vigil", TEST_CATALOGUE_FILE: "build/tests.json" }).testCatalogueFile).toBe(
      "/srv/vigil/build/tests.json",
    );
    expect(loadConfig({ TEST_CATALOGUE_FILE: "/var/lib/vigil/tests.json" }).testCatalogueFile).toBe(
      "/var/lib/vigil/tests.json",
    );
  });

  it("lets token and sign-in lifetimes be as short as a minute, the sign-in's in fractions of an hour", () => {
    expect(loadConfig({}).tokens).toMatchObject({ idTokenMinutes: 60, accessTokenMinutes: 60, refreshTokenHours: 12 });
    expect(
      loadConfig({ ID_TOKEN_MINUTES: "1", ACCESS_TOKEN_MINUTES: "1", REFRESH_TOKEN_HOURS: "0.05" }).tokens,
    ).toMatchObject({ idTokenMinutes: 1, accessTokenMinutes: 1, refreshTokenHours: 0.05 });
    expect(() => loadConfig({ REFRESH_TOKEN_HOURS: "0.01" })).toThrow(
      /REFRESH_TOKEN_HOURS must be at least one minute/,
    );
    expect(() => loadConfig({ ID_TOKEN_MINUTES: "0" })).toThrow(/ID_TOKEN_MINUTES/);
  });

  it("takes an identity endpoint elsewhere only as an http(s) URL", () => {
    expect(loadConfig({}).userPoolEndpoint).toBeUndefined();
    expect(loadConfig({ USER_POOL_ENDPOINT: "https://idp.example.org/pool" }).userPoolEndpoint).toBe(
      "https://idp.example.org/pool",
    );
    expect(() => loadConfig({ USER_POOL_ENDPOINT: "javascript:alert(1)" })).toThrow(/USER_POOL_ENDPOINT/);
  });

  it("names every invalid variable in one error", () => {
    const attempt = () => loadConfig({ PORT: "eighty", DATABASE_URL: "mysql://x", MFA_MODE: "SOMETIMES" });
    expect(attempt).toThrow(ConfigError);
    expect(attempt).toThrow(/PORT[\s\S]*DATABASE_URL: DATABASE_URL must be a postgres:\/\/ URL[\s\S]*MFA_MODE/);
  });
});
