import type { FastifyInstance } from "fastify";

/**
 * Every answer under `/api/` says `Cache-Control: no-store`: answers name patients, and the workstations of a
 * monitoring service are shared, so no browser or proxy cache may keep a copy. Set when the request arrives, before
 * authentication, so refusals and errors (which may echo what was asked for) carry it too.
 */
export function registerNoStore(app: FastifyInstance): void {
  app.addHook("onRequest", async (request, reply) => {
    if (request.url.startsWith("/api/")) reply.header("cache-control", "no-store");
  });
}
