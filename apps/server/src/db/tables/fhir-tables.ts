import { sql } from "drizzle-orm";
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { clients } from "./client-tables.js";
import { createdAt, updatedAt } from "./columns.js";

/**
 * A hospital system registered for SMART Backend Services (docs/design/FHIR.md): its client id (unique: one id
 * belongs to one Vigil client), where its public keys are (a URL, or the JWKS itself) and the scopes it may be
 * granted. `version` advances with each change (a stale base is refused). A JWKS fetched from the URL is kept here
 * with its fetch time, so every instance verifies against the same keys and a key rotation is seen by all.
 */
export const smartClients = pgTable(
  "smart_clients",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    clientId: uuid("client_id")
      .notNull()
      .references(() => clients.id),
    systemClientId: text("system_client_id").notNull().unique("smart_clients_system_client_id_key"),
    name: text("name").notNull(),
    jwksUrl: text("jwks_url"),
    jwks: jsonb("jwks").$type<{ keys: Record<string, unknown>[] }>(),
    scopes: text("scopes").array().notNull(),
    enabled: boolean("enabled").notNull(),
    version: integer("version").notNull().default(1),
    fetchedJwks: jsonb("fetched_jwks").$type<{ keys: Record<string, unknown>[] }>(),
    fetchedAt: timestamp("fetched_at", { withTimezone: true }),
    updatedBySub: uuid("updated_by_sub"),
    updatedByUsername: text("updated_by_username").notNull(),
    updatedByName: text("updated_by_name"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("smart_clients_client_idx").on(table.clientId),
    check("smart_clients_one_key_source", sql`(${table.jwksUrl} is null) <> (${table.jwks} is null)`),
  ],
);

/**
 * Every assertion `jti` a token request used, until the assertion's own expiry: the primary key makes a second use
 * fail in the database, so two instances racing one assertion issue one token.
 */
export const smartAssertionJtis = pgTable(
  "smart_assertion_jtis",
  {
    systemClientId: text("system_client_id").notNull(),
    jti: text("jti").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ name: "smart_assertion_jtis_pkey", columns: [table.systemClientId, table.jti] }),
    index("smart_assertion_jtis_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Access tokens issued by the token endpoint, by the SHA-256 of the token (the token itself is never stored): any
 * instance can check one, and disabling the system or revoking the row ends it at once.
 */
export const smartAccessTokens = pgTable(
  "smart_access_tokens",
  {
    tokenHash: text("token_hash").primaryKey(),
    smartClientId: uuid("smart_client_id")
      .notNull()
      .references(() => smartClients.id),
    scopes: text("scopes").array().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("smart_access_tokens_client_idx").on(table.smartClientId),
    index("smart_access_tokens_expires_idx").on(table.expiresAt),
  ],
);

/**
 * Where a client's signed reports are pushed over FHIR (docs/design/FHIR.md, "Push"): the hospital's FHIR base, its
 * token endpoint (null: discovered from `<base>/.well-known/smart-configuration`), the client id Vigil was given
 * there and the scopes Vigil asks for. One row per client; `version` advances with each change (a stale base is
 * refused).
 */
export const fhirPushSettings = pgTable("fhir_push_settings", {
  clientId: uuid("client_id")
    .primaryKey()
    .references(() => clients.id),
  enabled: boolean("enabled").notNull(),
  baseUrl: text("base_url").notNull(),
  tokenUrl: text("token_url"),
  systemClientId: text("system_client_id").notNull(),
  scopes: text("scopes").notNull(),
  version: integer("version").notNull().default(1),
  updatedBySub: uuid("updated_by_sub"),
  updatedByUsername: text("updated_by_username").notNull(),
  updatedByName: text("updated_by_name"),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/**
 * Vigil's own signing keys for the assertions it sends to hospitals' token endpoints, shared by every instance: the
 * partial unique index allows one active key, so two instances starting at once make one (the loser reads the
 * winner's). A retired key stays published until it is deleted, so assertions signed just before a rotation verify.
 */
export const vigilSigningKeys = pgTable(
  "vigil_signing_keys",
  {
    kid: text("kid").primaryKey(),
    alg: text("alg").notNull().$type<"ES384" | "RS384">(),
    publicJwk: jsonb("public_jwk").notNull().$type<Record<string, unknown>>(),
    privateJwk: jsonb("private_jwk").notNull().$type<Record<string, unknown>>(),
    active: boolean("active").notNull(),
    createdAt: createdAt(),
    retiredAt: timestamp("retired_at", { withTimezone: true }),
  },
  (table) => [uniqueIndex("vigil_signing_keys_one_active_idx").on(table.active).where(sql`${table.active}`)],
);
