import { type ChallengeStore, readChallengeData } from "./challenge-store.js";
import { CognitoError, expiredSession, invalidParameter } from "./cognito-error.js";
import { associateSoftwareTokenSchema, parseRequest, verifySoftwareTokenSchema } from "./cognito-requests.js";
import { type CallContext, enabledMfa, type IdentityKit } from "./identity-kit.js";
import { consumeAuthChallenge } from "./sessions-repository.js";
import { refundSignInAttempt, reserveSignInAttempt } from "./sign-in-failures-repository.js";
import { createTotpSecret, matchTotpStep } from "./totp.js";
import { type UserRow, updateUser } from "./users-repository.js";

/**
 * Refused while the name is locked after wrong codes. Not `NotAuthorizedException`: the web app would take that for
 * an ended session and sign the user out of the account page.
 */
const tooManyWrongCodes = () =>
  new CognitoError(
    "LimitExceededException",
    "Too many wrong codes: wait a moment (longer after each further wrong code), then type the code the app shows now.",
  );

/**
 * AssociateSoftwareToken and VerifySoftwareToken: an authenticator app set up during sign-in (the MFA_SETUP
 * challenge, with its Session) or by a signed-in user (with an AccessToken).
 */
export class SoftwareTokenSetup {
  constructor(
    private readonly kit: IdentityKit,
    private readonly challenges: ChallengeStore,
  ) {}

  /** With a challenge Session (MFA_SETUP) or an AccessToken (a signed-in user adding an authenticator app). */
  async associate(input: unknown, context: CallContext): Promise<{ SecretCode: string; Session?: string }> {
    const request = parseRequest(associateSoftwareTokenSchema, input);
    const secret = createTotpSecret();
    const now = new Date();
    if (request.Session && !request.AccessToken) {
      const { challenge, user } = await this.challenges.load(request.Session, "MFA_SETUP");
      const session = await this.kit.db.transaction(async (tx) => {
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        await this.kit.audit(tx, context, {
          action: "auth.totp-associate",
          outcome: "success",
          actor: user,
          target: { type: "user", id: user.username },
          details: { during: "MFA_SETUP" },
        });
        return this.challenges.create(tx, user, "MFA_SETUP", challenge.clientId, now, context, { secret }, false);
      });
      return { SecretCode: secret, Session: session };
    }
    if (!request.AccessToken || request.Session) {
      throw invalidParameter("Give either an AccessToken or a Session (exactly one).");
    }
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    this.kit.checkMfaAvailable();
    await this.kit.db.transaction(async (tx) => {
      await updateUser(tx, user.sub, { pendingTotpSecret: secret });
      await this.kit.audit(tx, context, {
        action: "auth.totp-associate",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
      });
    });
    return { SecretCode: secret };
  }

  async verify(input: unknown, context: CallContext): Promise<{ Status: "SUCCESS"; Session?: string }> {
    const request = parseRequest(verifySoftwareTokenSchema, input);
    const now = new Date();
    const mismatch = () =>
      new CognitoError("EnableSoftwareTokenMFAException", "Code mismatch and fail enable Software Token MFA");
    const details = request.FriendlyDeviceName ? { friendlyDeviceName: request.FriendlyDeviceName } : {};
    const refuse = async (user: UserRow, reason = "wrong code", error = mismatch()) => {
      await this.kit.audit(this.kit.db, context, {
        action: "auth.totp-verify",
        outcome: "failure",
        actor: user,
        target: { type: "user", id: user.username },
        details: { reason, ...details },
      });
      return error;
    };
    /**
     * A wrong code counts like a wrong password or sign-in code (AUTH.md: 5 failures lock the name, 1 s doubling up to
     * 15 minutes), counted before the code is checked so parallel guesses cannot slip past; a right one is given back.
     * Otherwise the 6 digits could be guessed here, without limit, once a password (or an access token) was had.
     */
    const check = async (user: UserRow, secret: string): Promise<number> => {
      if (!(await reserveSignInAttempt(this.kit.db, user.usernameKey, now))) {
        throw await refuse(user, "locked out", tooManyWrongCodes());
      }
      const step = matchTotpStep(secret, request.UserCode, now);
      if (step === undefined) throw await refuse(user);
      await refundSignInAttempt(this.kit.db, user.usernameKey);
      return step;
    };

    if (request.Session && !request.AccessToken) {
      const { challenge, user } = await this.challenges.load(request.Session, "MFA_SETUP");
      const { secret } = readChallengeData(challenge);
      if (!secret) throw invalidParameter("Call AssociateSoftwareToken with this session first.");
      // A wrong code leaves the session usable: the user types the next one.
      const step = await check(user, secret);
      const session = await this.kit.db.transaction(async (tx) => {
        if (!(await consumeAuthChallenge(tx, challenge.id, now))) throw expiredSession();
        const others = enabledMfa(user);
        await updateUser(tx, user.sub, {
          totpSecret: secret,
          pendingTotpSecret: null,
          totpEnabled: true,
          lastTotpStep: step,
          preferredMfa: others.length === 0 ? "SOFTWARE_TOKEN_MFA" : user.preferredMfa,
        });
        await this.kit.audit(tx, context, {
          action: "auth.totp-verify",
          outcome: "success",
          actor: user,
          target: { type: "user", id: user.username },
          details: { during: "MFA_SETUP", enabled: "SOFTWARE_TOKEN_MFA", ...details },
        });
        return this.challenges.create(
          tx,
          user,
          "MFA_SETUP",
          challenge.clientId,
          now,
          context,
          { verified: true },
          false,
        );
      });
      return { Status: "SUCCESS", Session: session };
    }
    if (!request.AccessToken || request.Session) {
      throw invalidParameter("Give either an AccessToken or a Session (exactly one).");
    }
    const { user } = await this.kit.userFromAccessToken(request.AccessToken);
    if (!user.pendingTotpSecret) {
      throw new CognitoError(
        "SoftwareTokenMFANotFoundException",
        "Software token MFA has not been associated with the user: call AssociateSoftwareToken first.",
      );
    }
    const step = await check(user, user.pendingTotpSecret);
    await this.kit.db.transaction(async (tx) => {
      // Verified, not yet turned on: SetUserMFAPreference does that (as in Cognito).
      await updateUser(tx, user.sub, {
        totpSecret: user.pendingTotpSecret,
        pendingTotpSecret: null,
        lastTotpStep: step,
      });
      await this.kit.audit(tx, context, {
        action: "auth.totp-verify",
        outcome: "success",
        actor: user,
        target: { type: "user", id: user.username },
        details,
      });
    });
    return { Status: "SUCCESS" };
  }
}
