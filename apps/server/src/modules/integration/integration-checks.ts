import type { IntegrationCheckId } from "@vigil/contract";
import { clockSkew, databaseRoundTrip, dataFolderDisk, migrationsCurrent } from "./database-checks.js";
import { findingDeliveries } from "./delivery-checks.js";
import type { IntegrationCheck } from "./integration-check.js";
import { jobQueue } from "./job-checks.js";
import { mailTransport, oidcDiscovery } from "./peer-checks.js";
import { signingKeys, tokenIssuerJwks } from "./token-checks.js";

/**
 * The live self-checks of a deployment, one file per kind of peer: the database (database-checks.ts), the tokens
 * this server signs and publishes (token-checks.ts), the SMTP server and the upstream OpenID provider
 * (peer-checks.ts), the critical findings' message queue (delivery-checks.ts), the job queue (job-checks.ts); what a check is and returns is in
 * integration-check.ts.
 */

/** In the contract's order, which is the order the page lists them. */
export const integrationChecks: Record<IntegrationCheckId, IntegrationCheck> = {
  "database-round-trip": databaseRoundTrip,
  "migrations-current": migrationsCurrent,
  "signing-keys": signingKeys,
  "token-issuer-jwks": tokenIssuerJwks,
  "mail-transport": mailTransport,
  "clock-skew": clockSkew,
  "data-folder-disk": dataFolderDisk,
  "oidc-discovery": oidcDiscovery,
  "finding-deliveries": findingDeliveries,
  "job-queue": jobQueue,
};
