import { createHash, timingSafeEqual } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { createMetrics, type MetricSources, type Metrics, unmatchedRoute } from "../http/metrics.js";

/** Where Prometheus scrapes; outside `/api` (no JSON envelope, no API token) and listed in `infrastructureRoutes`. */
export const metricsPath = "/metrics";

const sha256 = (text: string) => createHash("sha256").update(text).digest();

/**
 * `GET /metrics` for the operators' Prometheus (docs/operations.md, "Metrics"). Without METRICS_TOKEN it answers 404
 * as any unknown path does and nothing is measured; with it, a scraper sending `Authorization: Bearer <token>` gets
 * the exposition text, anyone else 401. Registered first among the routes, so its `onResponse` hook sees every
 * route's answers.
 */
export function registerMetrics(
  app: FastifyInstance,
  token: string | undefined,
  sources: MetricSources,
): Metrics | undefined {
  const config = { routeName: "metrics", access: "public" } as const;
  if (!token) {
    app.get(metricsPath, { config }, async (_request, reply) => {
      reply.header("cache-control", "no-store");
      return reply.callNotFound();
    });
    return undefined;
  }

  const metrics = createMetrics(sources, app.log);
  // Both sides hashed to one length, so the comparison takes the same time whatever was sent.
  const expected = sha256(`Bearer ${token}`);
  const authorized = (header: string | undefined) => header !== undefined && timingSafeEqual(sha256(header), expected);

  // A callback, not an async function: every answer runs it, and an async hook costs a promise and a turn.
  app.addHook("onResponse", (request, reply, done) => {
    // The contract's route name, else the router's path template; never the path as typed (it holds ids). Read
    // once: Fastify builds a new object at each `routeOptions` access.
    const { config, url } = request.routeOptions;
    const route = config?.routeName ?? url ?? unmatchedRoute;
    const streamed = String(reply.getHeader("content-type") ?? "").startsWith("text/event-stream");
    metrics.observeRequest({
      route,
      method: request.method,
      statusCode: reply.statusCode,
      // An event stream's time is how long the browser kept it open, which would swamp the answers' latencies.
      seconds: streamed ? undefined : reply.elapsedTime / 1000,
    });
    done();
  });

  app.get(metricsPath, { config }, async (request, reply) => {
    reply.header("cache-control", "no-store");
    if (!authorized(request.headers.authorization)) {
      return reply
        .status(401)
        .header("www-authenticate", 'Bearer realm="metrics"')
        .type("text/plain; charset=utf-8")
        .send("The metrics need the bearer token set as METRICS_TOKEN.\n");
    }
    return reply.type(metrics.contentType).send(await metrics.scrape());
  });
  return metrics;
}
