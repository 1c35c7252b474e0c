import type { FastifyInstance } from "fastify";
import { CognitoError } from "./cognito-error.js";
import type { CallContext, CognitoService } from "./cognito-service.js";
import type { TokenService } from "./token-service.js";

const targetPrefix = "AWSCognitoIdentityProviderService.";

type Operation = (input: unknown, context: CallContext) => Promise<unknown>;

/**
 * The identity service's HTTP face: Cognito's JSON protocol at `POST /cognito` (the Amplify `userPoolEndpoint`)
 * and the token issuer's discovery documents under `/.well-known/`. These are public by nature and sit outside
 * the `/api` route table; `infrastructureRoutes` in app.ts lists them for the authorization matrix.
 */
export function registerIdentityRoutes(app: FastifyInstance, cognito: CognitoService, tokens: TokenService): void {
  const operations: Record<string, Operation> = {
    InitiateAuth: (input, context) => cognito.initiateAuth(input, context),
    RespondToAuthChallenge: (input, context) => cognito.respondToAuthChallenge(input, context),
    GetUser: (input) => cognito.getUser(input),
    RevokeToken: (input, context) => cognito.revokeToken(input, context),
    GlobalSignOut: (input, context) => cognito.globalSignOut(input, context),
  };

  // Amplify posts `application/x-amz-json-1.1`; parse it as JSON.
  app.addContentTypeParser("application/x-amz-json-1.1", { parseAs: "string" }, (_request, body, done) => {
    try {
      done(null, body === "" ? {} : JSON.parse(body as string));
    } catch {
      done(new CognitoError("SerializationException", "The request body is not valid JSON."));
    }
  });

  app.register(async (scope) => {
    scope.setErrorHandler((error, request, reply) => {
      const known = error instanceof CognitoError;
      if (!known) request.log.error({ err: error }, "identity operation failed");
      const failure = known ? error : new CognitoError("InternalErrorException", "An internal error occurred.", 500);
      reply
        .status(failure.status)
        .headers({ "x-amzn-errortype": failure.type, ...failure.headers })
        .type("application/x-amz-json-1.1")
        .send(JSON.stringify({ __type: failure.type, message: failure.message }));
    });

    scope.post("/cognito", { config: { routeName: "cognito", access: "public" } }, async (request, reply) => {
      const target = String(request.headers["x-amz-target"] ?? "");
      const name = target.startsWith(targetPrefix) ? target.slice(targetPrefix.length) : target;
      const operation = operations[name];
      if (!operation) {
        throw new CognitoError(
          name ? "UnsupportedOperationException" : "UnknownOperationException",
          name ? `${name} is not supported by this identity service.` : "Missing X-Amz-Target header.",
        );
      }
      const result = await operation(request.body ?? {}, { ip: request.ip });
      reply.header("cache-control", "no-store").type("application/x-amz-json-1.1");
      return JSON.stringify(result);
    });

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
