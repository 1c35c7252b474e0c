import path from "node:path";
import { z } from "zod";

/**
 * The environment variables of federated sign-in through the hosted UI (AUTH.md "Federated sign-in") and of the
 * HTTPS listener it needs on a workstation. config.ts spreads `federationEnvShape` into its schema, runs
 * `checkFederationEnv` over the whole environment and calls `resolveFederationConfig`; nothing here reads
 * process.env. It sits beside config.ts, below identity/federation/ which uses what it resolves.
 */
const urlList = z
  .string()
  .transform((value) =>
    value
      .split(",")
      .map((item) => item.trim())
      .filter(Boolean),
  )
  .pipe(z.array(z.url()).min(1));

export const federationEnvShape = {
  /** The upstream OpenID Connect provider (e.g. `https://accounts.google.com`); without it federation is off. */
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  /** Optional: without a secret Vigil is a public client at the provider (PKCE only). */
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  /** Shown on the sign-in button ("Sign In with Google"); "Google" for Google's issuer, else the issuer's host. */
  OIDC_PROVIDER_NAME: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[\p{L}\p{N} ._-]+$/u, "OIDC_PROVIDER_NAME may hold letters, digits, spaces, dots, dashes")
    .optional(),
  /**
   * The host (and port) the hosted UI answers on over HTTPS: Amplify always calls `https://<domain>/oauth2/…`.
   * Defaults to PUBLIC_URL's host when PUBLIC_URL is https, else to `localhost:HTTPS_PORT` with the TLS files.
   */
  HOSTED_UI_DOMAIN: z
    .string()
    .regex(/^[a-zA-Z0-9.-]+(:\d{1,5})?$/, "HOSTED_UI_DOMAIN must be a host name with an optional :port, no scheme")
    .optional(),
  /** Where the hosted UI may send users back after sign-in / sign-out (comma-separated, exact match). */
  OAUTH_REDIRECT_URIS: urlList.optional(),
  OAUTH_LOGOUT_URIS: urlList.optional(),
  /** With both files, Vigil also listens on HTTPS (HTTPS_PORT) — how the hosted UI is reachable locally. */
  TLS_CERT_FILE: z.string().min(1).optional(),
  TLS_KEY_FILE: z.string().min(1).optional(),
  HTTPS_PORT: z.coerce.number().int().min(0).max(65535).default(3443),
};

type FederationEnv = {
  OIDC_ISSUER?: string | undefined;
  OIDC_CLIENT_ID?: string | undefined;
  OIDC_CLIENT_SECRET?: string | undefined;
  OIDC_PROVIDER_NAME?: string | undefined;
  HOSTED_UI_DOMAIN?: string | undefined;
  OAUTH_REDIRECT_URIS?: string[] | undefined;
  OAUTH_LOGOUT_URIS?: string[] | undefined;
  TLS_CERT_FILE?: string | undefined;
  TLS_KEY_FILE?: string | undefined;
  HTTPS_PORT: number;
  PUBLIC_URL?: string | undefined;
};

export type FederationConfig = {
  issuer: string;
  clientId: string;
  clientSecret: string | undefined;
  providerName: string;
  /** `host[:port]` of the hosted UI, always reached over HTTPS. */
  domain: string;
  /** `https://<domain>`: where the upstream provider sends users back (`/oauth2/idpresponse`). */
  hostedUiOrigin: string;
  redirectUris: string[];
  logoutUris: string[];
};

export type HttpsListenerConfig = { port: number; certFile: string; keyFile: string };

/** Cross-field rules, added to the configuration schema with `superRefine`. */
export function checkFederationEnv(value: FederationEnv, context: z.RefinementCtx): void {
  const issue = (pathName: string, message: string) => context.addIssue({ code: "custom", path: [pathName], message });
  if (Boolean(value.TLS_CERT_FILE) !== Boolean(value.TLS_KEY_FILE)) {
    issue(value.TLS_CERT_FILE ? "TLS_KEY_FILE" : "TLS_CERT_FILE", "TLS_CERT_FILE and TLS_KEY_FILE go together");
  }
  if (!value.OIDC_ISSUER) return;
  if (!value.OIDC_CLIENT_ID) issue("OIDC_CLIENT_ID", "is required with OIDC_ISSUER");
  if (new URL(value.OIDC_ISSUER).protocol !== "https:" && !isLoopbackUrl(value.OIDC_ISSUER)) {
    issue("OIDC_ISSUER", "must be an https:// URL (http:// only for a provider on this machine)");
  }
  const publicUrlIsHttps = value.PUBLIC_URL?.startsWith("https://") ?? false;
  if (!value.HOSTED_UI_DOMAIN && !publicUrlIsHttps && !value.TLS_CERT_FILE) {
    issue(
      "HOSTED_UI_DOMAIN",
      "federated sign-in needs HTTPS (Amplify always calls https://<domain>/oauth2/…): set PUBLIC_URL to an " +
        "https:// address, or TLS_CERT_FILE and TLS_KEY_FILE, or HOSTED_UI_DOMAIN when a proxy serves it",
    );
  }
}

export function resolveFederationConfig(
  value: FederationEnv,
  publicUrl: string,
  baseDir: string,
): { federation: FederationConfig | undefined; httpsListener: HttpsListenerConfig | undefined } {
  const httpsListener =
    value.TLS_CERT_FILE && value.TLS_KEY_FILE
      ? {
          port: value.HTTPS_PORT,
          certFile: path.resolve(baseDir, value.TLS_CERT_FILE),
          keyFile: path.resolve(baseDir, value.TLS_KEY_FILE),
        }
      : undefined;
  if (!value.OIDC_ISSUER || !value.OIDC_CLIENT_ID) return { federation: undefined, httpsListener };
  const issuerUrl = new URL(value.OIDC_ISSUER);
  const domain =
    value.HOSTED_UI_DOMAIN ??
    (publicUrl.startsWith("https://") ? new URL(publicUrl).host : `localhost:${value.HTTPS_PORT}`);
  const home = `${publicUrl}/`;
  return {
    federation: {
      issuer: value.OIDC_ISSUER,
      clientId: value.OIDC_CLIENT_ID,
      clientSecret: value.OIDC_CLIENT_SECRET,
      providerName:
        value.OIDC_PROVIDER_NAME ?? (issuerUrl.hostname === "accounts.google.com" ? "Google" : issuerUrl.hostname),
      domain,
      hostedUiOrigin: `https://${domain}`,
      redirectUris: value.OAUTH_REDIRECT_URIS ?? [home],
      logoutUris: value.OAUTH_LOGOUT_URIS ?? [home],
    },
    httpsListener,
  };
}

export function isLoopbackUrl(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === "localhost" || hostname === "127.0.0.1" || hostname === "[::1]";
}
