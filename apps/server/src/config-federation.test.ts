import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.js";

const base = { PUBLIC_URL: "http://localhost:3000" };

describe("federation configuration", () => {
  it("is off without OIDC_ISSUER", () => {
    const config = loadConfig(base);
    expect(config.federation).toBeUndefined();
    expect(config.httpsListener).toBeUndefined();
  });

  it("calls Google's issuer Google and serves the hosted UI on the HTTPS listener by default", () => {
    const config = loadConfig({
      ...base,
      OIDC_ISSUER: "https://accounts.google.com",
      OIDC_CLIENT_ID: "client.apps.googleusercontent.com",
      OIDC_CLIENT_SECRET: "secret",
      TLS_CERT_FILE: "cert.pem",
      TLS_KEY_FILE: "key.pem",
      INIT_CWD: "/srv/vigil",
    });
    expect(config.federation).toMatchObject({
      providerName: "Google",
      domain: "localhost:3443",
      hostedUiOrigin: "https://localhost:3443",
      redirectUris: ["http://localhost:3000/"],
      logoutUris: ["http://localhost:3000/"],
    });
    expect(config.httpsListener).toEqual({
      port: 3443,
      certFile: "/srv/vigil/cert.pem",
      keyFile: "/srv/vigil/key.pem",
    });
  });

  it("uses PUBLIC_URL's host when Vigil is served over HTTPS, and the lists it is given", () => {
    const config = loadConfig({
      PUBLIC_URL: "https://vigil.example.org",
      OIDC_ISSUER: "https://login.example.org/realms/staff",
      OIDC_CLIENT_ID: "vigil",
      OIDC_PROVIDER_NAME: "Example SSO",
      OAUTH_REDIRECT_URIS: "https://vigil.example.org/, https://vigil-staging.example.org/",
    });
    expect(config.federation).toMatchObject({
      providerName: "Example SSO",
      domain: "vigil.example.org",
      redirectUris: ["https://vigil.example.org/", "https://vigil-staging.example.org/"],
      logoutUris: ["https://vigil.example.org/"],
      clientSecret: undefined,
    });
  });

  it("refuses incomplete or unsafe settings with clear messages", () => {
    const attempt = (env: Record<string, string>) => () => loadConfig({ ...base, ...env });
    expect(attempt({ OIDC_ISSUER: "https://accounts.google.com", HOSTED_UI_DOMAIN: "auth.localhost" })).toThrow(
      /OIDC_CLIENT_ID: is required with OIDC_ISSUER/,
    );
    expect(attempt({ OIDC_ISSUER: "http://idp.example.org", OIDC_CLIENT_ID: "x", HOSTED_UI_DOMAIN: "a.b" })).toThrow(
      /OIDC_ISSUER: must be an https:\/\/ URL/,
    );
    expect(attempt({ OIDC_ISSUER: "https://accounts.google.com", OIDC_CLIENT_ID: "x" })).toThrow(
      /federated sign-in needs HTTPS/,
    );
    expect(attempt({ TLS_CERT_FILE: "cert.pem" })).toThrow(/TLS_CERT_FILE and TLS_KEY_FILE go together/);
    expect(attempt({ HOSTED_UI_DOMAIN: "https://auth.example.org" })).toThrow(ConfigError);
    expect(attempt({ OAUTH_REDIRECT_URIS: "not a url" })).toThrow(ConfigError);
  });

  it("allows a plain-HTTP provider on this machine (tests, development)", () => {
    const config = loadConfig({
      ...base,
      OIDC_ISSUER: "http://127.0.0.1:9000",
      OIDC_CLIENT_ID: "x",
      HOSTED_UI_DOMAIN: "localhost:3443",
    });
    expect(config.federation?.providerName).toBe("127.0.0.1");
  });
});
