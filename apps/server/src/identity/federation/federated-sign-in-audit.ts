import { recordAudit } from "../../audit/record-audit.js";
import type { FederationConfig } from "../../config-federation.js";
import type { Db } from "../../db/client.js";
import type { UserRow } from "../users-repository.js";

export type HostedUiContext = { ip: string | undefined };

/** Every step of a federated sign-in, from the redirect to the token exchange, is one `auth.federated-sign-in` event. */
export async function auditFederatedSignIn(
  db: Db,
  federation: FederationConfig,
  outcome: "success" | "failure",
  user: UserRow | undefined,
  context: HostedUiContext,
  details: Record<string, unknown>,
): Promise<void> {
  await recordAudit(db, {
    action: "auth.federated-sign-in",
    outcome,
    actor: user ? { sub: user.sub, username: user.username } : undefined,
    ...(user ? { target: { type: "user", id: user.username } } : {}),
    ip: context.ip,
    details: { provider: federation.providerName, ...details },
  });
}
