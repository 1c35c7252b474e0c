import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
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
