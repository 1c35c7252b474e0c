import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { auditTextLimit } from "../audit/record-audit.js";
import { decodeUtf8, findUnstorableText, malformedUtf8Message } from "../http/unstorable-text.js";
import { CognitoError, invalidParameter } from "./cognito-error.js";
import type { CallContext, CognitoService } from "./cognito-service.js";
import type { TokenService } from "./token-service.js";

const targetPrefix = "AWSCognitoIdentityProviderService.";

type Operation = (input: unknown, context: CallContext) => Promise<unknown>;

/**
 * Operations that act on behalf of the holder of an `AccessToken` (and check it before anything else). Any other
 * call — or one of these without a token — is unauthenticated and throttled per client IP (AUTH.md). An
 * `AccessToken` field sent to an operation that ignores it changes nothing.
 */
const accessTokenOperations = new Set([
  "GetUser",
  "GlobalSignOut",
  "ChangePassword",
  "SetUserMFAPreference",
  "UpdateUserAttributes",
  "GetUserAttributeVerificationCode",
  "VerifyUserAttribute",
  "AssociateSoftwareToken",
  "VerifySoftwareToken",
]);

function isAuthenticated(operation: string, body: unknown): boolean {
  const accessToken = (body as { AccessToken?: unknown } | null)?.AccessToken;
  return accessTokenOperations.has(operation) && typeof accessToken === "string" && accessToken.length > 0;
}

/**
 * Cognito-style names for what Fastify refuses before an operation runs, keeping its status (a 4xx is the client's
 * to fix, never an `InternalErrorException`). 413 and 415 have no Cognito exception of their own; the names are
 * those AWS services use for them.
 */
const frameworkErrorTypes: Record<number, string> = {
  400: "SerializationException",
  413: "RequestEntityTooLargeException",
  415: "UnsupportedMediaTypeException",
};

function frameworkRefusal(error: unknown): CognitoError | undefined {
  const { statusCode: status, code, message: frameworkMessage } = (error ?? {}) as Partial<FastifyError>;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const message =
    code === "FST_ERR_CTP_BODY_TOO_LARGE"
      ? "The request body is larger than the 1 MB the identity endpoint accepts."
      : (frameworkMessage ?? "The request was refused.");
  return new CognitoError(frameworkErrorTypes[status] ?? "InvalidParameterException", message, status);
}

function internalError(error: unknown, request: FastifyRequest): CognitoError {
  request.log.error({ err: error }, "identity operation failed");
  return new CognitoError("InternalErrorException", "An internal error occurred.", 500);
}

/**
 * The identity service's HTTP face: Cognito's JSON protocol at `POST /cognito` and `POST /cognito/` (the Amplify
 * `userPoolEndpoint`; the AWS SDK adds the slash) and the token issuer's discovery documents under `/.well-known/`.
 * These are public by nature and sit outside the `/api` route table; `infrastructureRoutes` in app.ts lists them for
 * the authorization matrix.
 */
export function registerIdentityRoutes(app: FastifyInstance, cognito: CognitoService, tokens: TokenService): void {
  const operations: Record<string, Operation> = {
    InitiateAuth: (input, context) => cognito.initiateAuth(input, context),
    RespondToAuthChallenge: (input, context) => cognito.respondToAuthChallenge(input, context),
    AssociateSoftwareToken: (input, context) => cognito.softwareTokens.associate(input, context),
    VerifySoftwareToken: (input, context) => cognito.softwareTokens.verify(input, context),
    SetUserMFAPreference: (input, context) => cognito.account.setUserMfaPreference(input, context),
    ForgotPassword: (input, context) => cognito.passwordReset.forgotPassword(input, context),
    ConfirmForgotPassword: (input, context) => cognito.passwordReset.confirmForgotPassword(input, context),
    ChangePassword: (input, context) => cognito.account.changePassword(input, context),
    UpdateUserAttributes: (input, context) => cognito.account.updateUserAttributes(input, context),
    GetUserAttributeVerificationCode: (input, context) =>
      cognito.account.getUserAttributeVerificationCode(input, context),
    VerifyUserAttribute: (input, context) => cognito.account.verifyUserAttribute(input, context),
    GetUser: (input) => cognito.account.getUser(input),
    GetTokensFromRefreshToken: (input) => cognito.getTokensFromRefreshToken(input),
    RevokeToken: (input, context) => cognito.revokeToken(input, context),
    GlobalSignOut: (input, context) => cognito.account.globalSignOut(input, context),
  };

  // Amplify posts `application/x-amz-json-1.1`; parse it as JSON.
  app.addContentTypeParser("application/x-amz-json-1.1", { parseAs: "buffer" }, (_request, bytes, done) => {
    // Decoded strictly: malformed UTF-8 became U+FFFD in a stored name instead of a refusal.
    const body = decodeUtf8(bytes as Buffer);
    if (body === undefined) return done(invalidParameter(`The request body ${malformedUtf8Message}.`));
    let parsed: unknown;
    try {
      parsed = body === "" ? {} : JSON.parse(body);
    } catch {
      done(new CognitoError("SerializationException", "The request body is not valid JSON."));
      return;
    }
    // PostgreSQL cannot compare or store text holding U+0000 (or an unpaired surrogate in JSON): a NUL in a username
    // was a 500.
    const unstorable = findUnstorableText(parsed, "body");
    if (unstorable) done(invalidParameter(`${unstorable.path.slice("body.".length)} ${unstorable.message}.`));
    else done(null, parsed);
  });

  app.register(async (scope) => {
    // Cognito's request id, which the AWS SDK reports as `$metadata.requestId`: the id of this request in the server's
    // log lines (`reqId`), so a client's error can be found there.
    scope.addHook("onRequest", async (request, reply) => {
      reply.header("x-amzn-requestid", request.id);
    });

    scope.setErrorHandler((error, request, reply) => {
      const failure =
        error instanceof CognitoError ? error : (frameworkRefusal(error) ?? internalError(error, request));
      reply
        .status(failure.status)
        .headers({ "x-amzn-errortype": failure.type, ...failure.headers })
        .type("application/x-amz-json-1.1")
        .send(JSON.stringify({ __type: failure.type, message: failure.message }));
    });

    // The AWS SDK posts to the endpoint's path with a trailing slash (`/cognito/`), Amplify without one.
    const cognitoRoute = { config: { routeName: "cognito", access: "public" } } as const;
    const handleOperation = async (request: FastifyRequest, reply: FastifyReply) => {
      const target = String(request.headers["x-amz-target"] ?? "");
      const name = target.startsWith(targetPrefix) ? target.slice(targetPrefix.length) : target;
      const userAgent = request.headers["user-agent"];
      // Capped as every audit row caps what a caller sends (audit/record-audit.ts).
      const context: CallContext = { ip: request.ip, userAgent: userAgent?.slice(0, auditTextLimit), log: request.log };
      if (!isAuthenticated(name, request.body)) await cognito.throttle(context);
      const operation = Object.hasOwn(operations, name) ? operations[name] : undefined;
      if (!operation) {
        throw new CognitoError(
          name ? "UnsupportedOperationException" : "UnknownOperationException",
          name ? `${name} is not supported by this identity service.` : "Missing X-Amz-Target header.",
        );
      }
      const result = await operation(request.body ?? {}, context);
      reply.header("cache-control", "no-store").type("application/x-amz-json-1.1");
      return JSON.stringify(result);
    };
    scope.post("/cognito", cognitoRoute, handleOperation);
    scope.post("/cognito/", cognitoRoute, handleOperation);

    scope.get(
      "/.well-known/jwks.json",
      { config: { routeName: "jwks", access: "public" } },
      async (_request, reply) => {
        reply.header("cache-control", "public, max-age=300");
        return tokens.publishedKeys();
      },
    );

    scope.get(
      "/.well-known/openid-configuration",
      { config: { routeName: "openid-configuration", access: "public" } },
      async () => ({
        issuer: tokens.issuer,
        jwks_uri: `${tokens.issuer}/.well-known/jwks.json`,
        authorization_endpoint: `${tokens.issuer}/oauth2/authorize`,
        token_endpoint: `${tokens.issuer}/oauth2/token`,
        userinfo_endpoint: `${tokens.issuer}/oauth2/userInfo`,
        end_session_endpoint: `${tokens.issuer}/logout`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
        scopes_supported: ["openid", "email", "phone", "profile", "aws.cognito.signin.user.admin"],
        token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
        claims_supported: [
          "sub",
          "email",
          "email_verified",
          "phone_number",
          "phone_number_verified",
          "name",
          "cognito:username",
          "cognito:groups",
        ],
      }),
    );
  });
}
