import { z } from "zod";
import type { Db } from "../db/client.js";
import { expiredSession } from "./cognito-error.js";
import type { CallContext, IdentityKit, MfaType } from "./identity-kit.js";
import { digestToken } from "./passwords.js";
import { type AuthChallengeRow, findAuthChallenge, insertAuthChallenge } from "./sessions-repository.js";
import { createOpaqueToken } from "./token-service.js";
import { findUserBySub, normaliseUsername, type UserRow } from "./users-repository.js";

/** Each challenge step lives 3 minutes (spec §9 "pending sign-in state expires after 3 minutes"). */
const challengeLifetimeMs = 3 * 60_000;

export type ChallengeName = "NEW_PASSWORD_REQUIRED" | MfaType | "SELECT_MFA_TYPE" | "MFA_SETUP";

/** What a challenge row remembers between steps. */
const challengeDataSchema = z
  .object({
    /** SMS_MFA: the `verification_codes` row of the code sent for this step. */
    codeId: z.string().optional(),
    /** MFA_SETUP: the TOTP secret handed out by AssociateSoftwareToken. */
    secret: z.string().optional(),
    /** MFA_SETUP: VerifySoftwareToken accepted a code; RespondToAuthChallenge may finish. */
    verified: z.boolean().optional(),
  })
  .catch({});
export type ChallengeData = z.infer<typeof challengeDataSchema>;

/**
 * The sign-in challenges in flight (`auth_challenges`): each step of a sign-in hands the client an opaque Session
 * that names one row, of one challenge kind, for one user, used once and for 3 minutes at most.
 */
export class ChallengeStore {
  constructor(private readonly kit: IdentityKit) {}

  /** A new opaque session (256 random bits, stored as a digest) bound to the user and the expected challenge. */
  async create(
    tx: Db,
    user: UserRow,
    name: ChallengeName,
    clientId: string,
    now: Date,
    context: CallContext,
    data?: ChallengeData,
    audited = true,
    auditDetails: Record<string, unknown> = {},
  ): Promise<string> {
    const session = createOpaqueToken();
    await insertAuthChallenge(tx, {
      sessionHash: digestToken(session),
      userSub: user.sub,
      challengeName: name,
      clientId,
      expiresAt: new Date(now.getTime() + challengeLifetimeMs),
      data: data ?? null,
    });
    if (audited) {
      await this.kit.audit(tx, context, {
        action: "auth.challenge",
        outcome: "success",
        actor: user,
        details: { challenge: name, ...auditDetails },
      });
    }
    return session;
  }

  /** The challenge a Session names, if it is live, of the expected kind, and its user may still sign in. */
  async load(
    session: string | undefined,
    name: ChallengeName,
    options: { username?: string } = {},
  ): Promise<{ challenge: AuthChallengeRow; user: UserRow }> {
    const challenge = session ? await findAuthChallenge(this.kit.db, digestToken(session)) : undefined;
    if (!challenge || challenge.consumedAt || challenge.expiresAt <= new Date() || challenge.challengeName !== name) {
      throw expiredSession();
    }
    const user = await findUserBySub(this.kit.db, challenge.userSub);
    if (!user?.enabled) throw expiredSession();
    if (options.username !== undefined && user.usernameKey !== normaliseUsername(options.username)) {
      throw expiredSession();
    }
    return { challenge, user };
  }
}

export function isChallengeName(name: string): name is ChallengeName {
  return ["NEW_PASSWORD_REQUIRED", "SMS_MFA", "SOFTWARE_TOKEN_MFA", "SELECT_MFA_TYPE", "MFA_SETUP"].includes(name);
}

export function readChallengeData(challenge: AuthChallengeRow): ChallengeData {
  return challengeDataSchema.parse(challenge.data ?? {});
}
