import nodemailer from "nodemailer";
import { describeError, fail, fetchJson, type IntegrationCheck, pass, round, skipped } from "./integration-check.js";

/** The checks of the peers Vigil sends to: the SMTP server, and the upstream OpenID provider of federated sign-in. */

/** `host:port` of an SMTP URL as nodemailer reads it (587, or 465 for smtps), never its credentials. */
export function smtpAddress(smtpUrl: string): { host: string; port: number; secure: boolean } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === "smtps:";
  return { host: url.hostname, port: Number(url.port) || (secure ? 465 : 587), secure };
}

const smtpHint = "Start the SMTP server or fix SMTP_URL.";

export const mailTransport: IntegrationCheck = {
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
    // The card lists the details in their order: what a step adds goes after them (Object.assign keeps the order).
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
        Object.assign({}, details, { error: describeError(error) }),
      );
    } finally {
      probe.close();
    }
    const latencyMs = round(performance.now() - started);
    return pass(
      `The SMTP server at ${host}:${port} completed the handshake in ${latencyMs} ms.`,
      Object.assign({}, details, { latencyMs }),
    );
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

export const oidcDiscovery: IntegrationCheck = {
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
    // In the card's order, as the mail check's: what a step adds goes after them.
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
        Object.assign({}, details, { keyCount }),
      );
    }
    return pass(
      `${federation.providerName} (${issuer}) publishes its endpoints and ${keyCount} key(s).`,
      Object.assign({}, details, { keyCount }),
    );
  },
  stalled: ({ config }) => ({
    waitingFor: `the OpenID provider ${config.federation?.issuer ?? ""} to answer`,
    hint: oidcHint(config.federation?.issuer ?? "unset"),
  }),
};
