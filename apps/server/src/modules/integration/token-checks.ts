import { randomUUID } from "node:crypto";
import { decodeProtectedHeader } from "jose";
import { findActiveSigningKey } from "../../identity/signing-keys-repository.js";
import {
  type CheckContext,
  databaseHint,
  describeError,
  fail,
  fetchJson,
  type IntegrationCheck,
  pass,
  round,
} from "./integration-check.js";

/** The token checks: the key this server signs with, and the issuer's published JWKS seen from outside. */

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

export const signingKeys: IntegrationCheck = {
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

const publicUrlHint = (publicUrl: string) =>
  `Set PUBLIC_URL (now ${publicUrl}) to the address users reach Vigil at, and make sure this server can reach ` +
  "it too (DNS, proxy, firewall): tokens name it as their issuer, and clients fetch the keys there.";

export const tokenIssuerJwks: IntegrationCheck = {
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
