import { sql } from "drizzle-orm";
import { boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "./columns.js";

export const users = pgTable(
  "users",
  {
    sub: uuid("sub").primaryKey().defaultRandom(),
    /** As typed by the administrator; lookups go through the normalised (lower-case) key. */
    username: text("username").notNull(),
    usernameKey: text("username_key").notNull(),
    email: text("email").notNull(),
    emailVerified: boolean("email_verified").notNull().default(false),
    phoneNumber: text("phone_number"),
    phoneNumberVerified: boolean("phone_number_verified").notNull().default(false),
    name: text("name").notNull(),
    /** Professional identity (FHIR.md "Identifiers"): the name as parts, for US Core; `name` stays the display. */
    familyName: text("family_name"),
    givenNames: text("given_names").array().notNull().default(sql`'{}'::text[]`),
    /** The US National Provider Identifier, 10 digits with a valid Luhn check digit (prefix 80840). */
    npi: text("npi"),
    /** Printed under the signature after the name ("MD", "PhD"). */
    credentials: text("credentials"),
    boardCertifications: text("board_certifications").array().notNull().default(sql`'{}'::text[]`),
    passwordHash: text("password_hash").notNull(),
    /** FORCE_CHANGE_PASSWORD | CONFIRMED | RESET_REQUIRED (Cognito's user statuses we use). */
    status: text("status").notNull(),
    temporaryPasswordExpiresAt: timestamp("temporary_password_expires_at", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    groups: text("groups").array().notNull().default(sql`'{}'::text[]`),
    /** SMS MFA needs a phone number set by an administrator. */
    smsMfaEnabled: boolean("sms_mfa_enabled").notNull().default(false),
    /** Base32 TOTP secret once verified (VerifySoftwareToken); the pending one lives on the challenge or here. */
    totpSecret: text("totp_secret"),
    pendingTotpSecret: text("pending_totp_secret"),
    totpEnabled: boolean("totp_enabled").notNull().default(false),
    /** SMS_MFA | SOFTWARE_TOKEN_MFA | null (no preference: SELECT_MFA_TYPE when both are on). */
    preferredMfa: text("preferred_mfa"),
    /** The last TOTP time step accepted: a code is usable once. */
    lastTotpStep: integer("last_totp_step"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [uniqueIndex("users_username_key_idx").on(table.usernameKey), index("users_email_idx").on(table.email)],
);

/** ES256 signing keys; the private JWK never leaves the database and this process. */
export const signingKeys = pgTable("signing_keys", {
  kid: text("kid").primaryKey(),
  publicJwk: jsonb("public_jwk").notNull(),
  privateJwk: jsonb("private_jwk").notNull(),
  createdAt: createdAt(),
  /** After this the key signs nothing; it stays published until tokens it signed have expired. */
  retiredAt: timestamp("retired_at", { withTimezone: true }),
});

/**
 * One row per sign-in ("origin"): every access, ID and refresh token minted from it carries its id as
 * `origin_jti`. Revoking the row makes all of them fail on the API at once.
 */
export const authSessions = pgTable(
  "auth_sessions",
  {
    originJti: uuid("origin_jti").primaryKey().defaultRandom(),
    userSub: uuid("user_sub")
      .notNull()
      .references(() => users.sub, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    refreshTokenHash: text("refresh_token_hash").notNull(),
    authTime: timestamp("auth_time", { withTimezone: true }).notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /**
     * How the sign-in was ended: `this-sign-in` (its own sign-out, RevokeToken) or `every-sign-in` (all of the user's
     * at once: "sign out everywhere", a password change or reset, the account disabled). The API tells the holder of
     * a token ended the second way why (plugins/authenticate.ts); null while live, and for rows from before it.
     */
    revokedWith: text("revoked_with").$type<"this-sign-in" | "every-sign-in">(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("auth_sessions_refresh_token_hash_idx").on(table.refreshTokenHash),
    index("auth_sessions_user_sub_idx").on(table.userSub),
  ],
);

/** Pending challenge steps of a sign-in (the opaque `Session` of Cognito), valid 3 minutes. */
export const authChallenges = pgTable(
  "auth_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    sessionHash: text("session_hash").notNull(),
    userSub: uuid("user_sub")
      .notNull()
      .references(() => users.sub, { onDelete: "cascade" }),
    challengeName: text("challenge_name").notNull(),
    clientId: text("client_id").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    /** Step data: the MFA code sent for SMS_MFA, a TOTP secret being set up, the chosen MFA type… */
    data: jsonb("data"),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("auth_challenges_session_hash_idx").on(table.sessionHash)],
);

/**
 * Failed sign-in attempts per normalised username — also for names that do not exist, so lockout cannot
 * reveal which accounts do. Locked for 2^(n−5) s after 5 failures, capped at 15 minutes (AUTH.md).
 */
export const signInFailures = pgTable("sign_in_failures", {
  usernameKey: text("username_key").primaryKey(),
  failures: integer("failures").notNull().default(0),
  lockedUntil: timestamp("locked_until", { withTimezone: true }),
  lastFailureAt: timestamp("last_failure_at", { withTimezone: true }).notNull().defaultNow(),
});

/**
 * One-time codes (6 digits) for password reset, attribute verification and SMS MFA. Stored as digests;
 * issuing a new code for the same purpose replaces the old one.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userSub: uuid("user_sub")
      .notNull()
      .references(() => users.sub, { onDelete: "cascade" }),
    /** forgot-password | verify-email | verify-phone_number | sms-mfa */
    purpose: text("purpose").notNull(),
    codeHash: text("code_hash").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    attempts: integer("attempts").notNull().default(0),
    createdAt: createdAt(),
  },
  (table) => [index("verification_codes_user_purpose_idx").on(table.userSub, table.purpose)],
);

/**
 * Fixed-window counters shared by every instance: per-IP throttling of unauthenticated identity operations and
 * per-user hourly limits on reset requests and confirmations.
 */
export const rateLimits = pgTable("rate_limits", {
  key: text("key").primaryKey(),
  windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
  count: integer("count").notNull().default(0),
});

/**
 * Secrets the server makes for itself on first use and every instance shares (e.g. the key of ForgotPassword's
 * decoy answers, which must be the same on every instance and across restarts). Never sent anywhere.
 */
export const serverSecrets = pgTable("server_secrets", {
  name: text("name").primaryKey(),
  value: text("value").notNull(),
  createdAt: createdAt(),
});

/** A user's identity at an upstream OpenID Connect provider, linked by verified email at first use. */
export const federatedIdentities = pgTable(
  "federated_identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userSub: uuid("user_sub")
      .notNull()
      .references(() => users.sub, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("federated_identities_issuer_subject_idx").on(table.issuer, table.subject),
    index("federated_identities_user_idx").on(table.userSub),
  ],
);

/**
 * The hosted UI's in-flight logins and authorization codes (`/oauth2/authorize` → upstream → `/oauth2/token`).
 * `kind` is `upstream-state` (waiting for the upstream provider) or `code` (issued to the app); secrets as digests.
 */
export const oauthGrants = pgTable(
  "oauth_grants",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    secretHash: text("secret_hash").notNull(),
    userSub: uuid("user_sub").references(() => users.sub, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    redirectUri: text("redirect_uri").notNull(),
    scope: text("scope").notNull(),
    state: text("state"),
    codeChallenge: text("code_challenge"),
    codeChallengeMethod: text("code_challenge_method"),
    data: jsonb("data"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    consumedAt: timestamp("consumed_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("oauth_grants_secret_hash_idx").on(table.secretHash)],
);
