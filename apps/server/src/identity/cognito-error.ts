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
export const passwordAttemptsExceeded = () => new CognitoError("NotAuthorizedException", "Password attempts exceeded");
export const codeMismatch = () =>
  new CognitoError("CodeMismatchException", "Invalid verification code provided, please try again.");
export const expiredCode = () =>
  new CognitoError("ExpiredCodeException", "Invalid code provided, please request a code again.");
export const limitExceeded = () =>
  new CognitoError("LimitExceededException", "Attempt limit exceeded, please try after some time.");
export const tooManyRequests = (retryAfterSeconds: number) =>
  new CognitoError("TooManyRequestsException", "Too many requests, please try again later.", 400, {
    "retry-after": String(retryAfterSeconds),
  });
export const invalidPassword = (violation: string) =>
  new CognitoError("InvalidPasswordException", `Password does not conform to policy: ${violation}`);
