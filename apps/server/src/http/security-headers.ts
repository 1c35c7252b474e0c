import helmet from "@fastify/helmet";
import Fastify, { type FastifyInstance } from "fastify";

export type SecurityHeaderOptions = {
  https: boolean;
  /**
   * Other origins the app calls with fetch (the hosted UI's token endpoint when federated, an identity endpoint
   * elsewhere); each is allowed exactly, nothing wider.
   */
  connectSources?: string[];
};

/**
 * The @fastify/helmet options: the CSP allows only our own origin: scripts and styles come from the built bundle;
 * inline styles are allowed because MUI (emotion) injects style elements at run time; `data:` images carry the
 * TOTP QR code. Swagger UI at /api/docs brings its own CSP (see plugins/openapi.ts).
 */
export function helmetOptions(options: SecurityHeaderOptions) {
  return {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", "data:"],
        fontSrc: ["'self'", "data:"],
        connectSrc: ["'self'", ...new Set(options.connectSources)],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(options.https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // HSTS only makes sense when users reach us over HTTPS.
    strictTransportSecurity: options.https ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    crossOriginEmbedderPolicy: false,
  } as const;
}

/**
 * The headers @fastify/helmet sets with these options, in its order and spelling, asked of it once in a throwaway
 * Fastify instance: they depend on the options alone (no CSP nonces), while the plugin builds a new helmet
 * middleware on every request (parsing the CSP directives again each time, about a tenth of the CPU of an
 * authenticated `GET /api/chrome`).
 */
export async function computeSecurityHeaders(options: SecurityHeaderOptions): Promise<Array<[string, string]>> {
  const probe = Fastify({ logger: false });
  await probe.register(helmet, helmetOptions(options));
  let headers: Array<[string, string]> = [];
  probe.get("/", async (_request, reply) => {
    // Only what helmet put on the raw response: Fastify's own headers are not written before the answer is sent.
    // getRawHeaderNames (Node ≥ 15.13) keeps helmet's spelling; this @types/node does not declare it.
    const raw = reply.raw as typeof reply.raw & { getRawHeaderNames(): string[] };
    headers = raw.getRawHeaderNames().map((name) => [name, String(raw.getHeader(name))]);
    return "";
  });
  await probe.inject({ method: "GET", url: "/" });
  await probe.close();
  if (!headers.some(([name]) => name.toLowerCase() === "content-security-policy")) {
    throw new Error("@fastify/helmet set no Content-Security-Policy: the security headers could not be computed");
  }
  return headers;
}

/**
 * Security headers on every answer, as @fastify/helmet sets them with `helmetOptions`: computed once at start,
 * then put on each reply when the request arrives, where the plugin's own hook would have set them, so refusals and
 * errors carry them too. They go into Fastify's reply headers, not onto the raw response: Node checks a header's
 * name and value on `setHeader` and again as it writes the head, and once anything was set on the raw response it
 * sets every header Fastify holds a second time, so the raw route checked each header of every answer twice. From
 * the reply they are written and checked once. Nothing in the app sets `X-Powered-By`, which helmet removes.
 */
export async function registerSecurityHeaders(app: FastifyInstance, options: SecurityHeaderOptions): Promise<void> {
  const headers = Object.fromEntries(await computeSecurityHeaders(options));
  app.addHook("onRequest", (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
