/**
 * A Cognito-style failure: HTTP 400 with `{ "__type": "<Name>Exception", "message" }`, which Amplify turns into
 * the error names its Authenticator understands.
 */
export class CognitoError extends Error {
  constructor(
    readonly type: string,
    message: string,
    readonly status = 400,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = type;
  }
}

export const incorrectCredentials = () => new CognitoError("NotAuthorizedException", "Incorrect username or password.");
export const expiredSession = () =>
  new CognitoError("NotAuthorizedException", "Invalid session for the user, session is expired.");
export const invalidParameter = (message: string) => new CognitoError("InvalidParameterException", message);
