import helmet from "@fastify/helmet";
import type { FastifyInstance } from "fastify";

/**
 * Security headers. The CSP allows only our own origin: scripts and styles come from the built bundle;
 * inline styles are allowed because MUI (emotion) injects style elements at run time; `data:` images carry the
 * TOTP QR code. Swagger UI at /api/docs brings its own CSP (see plugins/openapi.ts).
 */
export async function registerSecurityHeaders(
  app: FastifyInstance,
  /**
   * `connectSources`: other origins the app calls with fetch (the hosted UI's token endpoint when federated, an
   * identity endpoint elsewhere); each is allowed exactly, nothing wider.
   */
  options: { https: boolean; connectSources?: string[] },
): Promise<void> {
  await app.register(helmet, {
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
  });
}
