import helmet from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";
import { describe, expect, it } from "vitest";
import {
  computeSecurityHeaders,
  helmetOptions,
  registerSecurityHeaders,
  type SecurityHeaderOptions,
} from "./security-headers.js";

/** The plugin itself with the same options, as every request would run it. */
async function registerHelmet(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  await app.register(helmet, helmetOptions(options));
}

/**
 * The security headers computed once (security-headers.ts) are those @fastify/helmet sets per request
 * with the same options, with and without HTTPS and extra connect sources, on answers, refusals and errors.
 */
async function answers(register: typeof registerSecurityHeaders, options: SecurityHeaderOptions) {
  const app = Fastify({ logger: false });
  await register(app, options);
  app.get("/api/ok", async () => ({ ok: true }));
  app.get("/api/fails", async () => {
    throw new Error("boom");
  });
  app.get("/plain", async (_request, reply) => reply.type("text/html").send("<p>hi</p>"));
  const result = [];
  for (const url of ["/api/ok", "/api/fails", "/plain", "/missing"]) {
    const response = await app.inject({ method: "GET", url });
    const { date: _date, ...headers } = response.headers;
    result.push({ url, status: response.statusCode, headers });
  }
  await app.close();
  return result;
}

describe("the security headers computed once", () => {
  const cases = [
    { https: false },
    { https: true },
    {
      https: true,
      connectSources: ["https://auth.example.com", "https://idp.example.com", "https://auth.example.com"],
    },
  ];
  for (const options of cases) {
    it(`match @fastify/helmet's (${JSON.stringify(options)})`, async () => {
      const ours = await answers(registerSecurityHeaders, options);
      expect(ours).toEqual(await answers(registerHelmet, options));
      expect(String(ours[0]?.headers["content-security-policy"])).toContain("default-src 'self'");
      expect(ours[0]?.headers["strict-transport-security"] !== undefined).toBe(options.https);
    });
  }

  it("keep helmet's spelling and order", async () => {
    const headers = await computeSecurityHeaders({ https: true });
    expect(headers[0]?.[0]).toBe("Content-Security-Policy");
    expect(headers.map(([name]) => name)).toContain("Strict-Transport-Security");
    expect(headers.map(([name]) => name)).toContain("X-Frame-Options");
  });
});
