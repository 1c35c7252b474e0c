import { createHash, randomBytes } from "node:crypto";
import type { FastifyInstance, LightMyRequestResponse } from "fastify";

/**
 * A minimal browser for API tests of the hosted UI: it keeps cookies per site, follows redirects, sends requests
 * for the hosted UI into the app (`inject`) and the others to the local OIDC provider over HTTP, and fills the
 * provider's sign-in form. It stops at the first address outside both, i.e. back at the web app.
 */
export class HostedUiBrowser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(
    private readonly app: FastifyInstance,
    private readonly hostedUiOrigin: string,
    private readonly providerOrigin: string,
  ) {}

  /** Opens `url` and follows the journey; `login` is typed into the provider's form, `abort` cancels there. */
  async open(
    url: string,
    at: { login?: string; abort?: boolean } = {},
  ): Promise<{ url: URL } | { page: LightMyRequestResponse }> {
    let next = new URL(url);
    for (let hop = 0; hop < 20; hop++) {
      if (next.origin === this.hostedUiOrigin) {
        const response = await this.app.inject({
          method: "GET",
          url: `${next.pathname}${next.search}`,
          headers: this.cookieHeader(next.origin),
        });
        this.store(next.origin, response.headers["set-cookie"]);
        if (response.statusCode !== 302) return { page: response };
        next = new URL(String(response.headers.location), next);
        continue;
      }
      if (next.origin === this.providerOrigin) {
        let response = await fetch(next, { redirect: "manual", headers: this.cookieHeader(next.origin) });
        this.store(next.origin, response.headers.getSetCookie());
        if (response.status === 200) {
          const html = await response.text();
          const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
          if (!action || (!at.login && !at.abort)) throw new Error(`Unexpected page at the provider:\n${html}`);
          const target = new URL(action.replaceAll("&amp;", "&"), next);
          if (at.abort) {
            response = await fetch(new URL(`${target.pathname}/abort`, next), {
              redirect: "manual",
              headers: this.cookieHeader(next.origin),
            });
          } else {
            response = await fetch(target, {
              method: "POST",
              redirect: "manual",
              headers: { ...this.cookieHeader(next.origin), "content-type": "application/x-www-form-urlencoded" },
              body: new URLSearchParams({ prompt: "login", login: at.login as string, password: "any" }).toString(),
            });
          }
          this.store(next.origin, response.headers.getSetCookie());
        }
        const location = response.headers.get("location");
        if (!location) throw new Error(`The provider answered ${response.status} without a redirect`);
        next = new URL(location, next);
        continue;
      }
      return { url: next };
    }
    throw new Error("Too many redirects");
  }

  forgetCookies(origin: string): void {
    this.jars.delete(origin);
  }

  private cookieHeader(origin: string): Record<string, string> {
    const jar = this.jars.get(origin);
    if (!jar || jar.size === 0) return {};
    return { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join("; ") };
  }

  private store(origin: string, setCookie: string | string[] | undefined): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    for (const header of [setCookie ?? []].flat()) {
      const [pair = ""] = header.split(";");
      const separator = pair.indexOf("=");
      const name = pair.slice(0, separator).trim();
      const value = pair.slice(separator + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(header) || /max-age=0/i.test(header);
      if (!value || expired) jar.delete(name);
      else jar.set(name, value);
    }
    this.jars.set(origin, jar);
  }
}

/** What Amplify sends: a 128-character PKCE verifier (spec §9) and its S256 challenge, and a 32-character state. */
export function createPkce(): { verifier: string; challenge: string; state: string } {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  const pick = (length: number) => Array.from(randomBytes(length), (byte) => alphabet[byte % alphabet.length]).join("");
  const verifier = pick(128);
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url"), state: pick(32) };
}
