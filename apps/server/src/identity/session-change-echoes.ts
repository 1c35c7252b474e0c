import type { FastifyInstance, FastifyRequest, onSendHookHandler, preValidationHookHandler } from "fastify";
import type { SessionCache } from "./session-cache.js";

/**
 * A request that changed what the session check answers (a sign-in revoked, a user disabled, groups changed) answers
 * only once its own notification has come back to this instance. PostgreSQL signals every listening connection at
 * the same commit, so by the time the caller reads "done", every other instance has been sent the change too, and a
 * next call there — the revoked token, the user's next page — is not answered from a memory that has not heard it
 * yet. Bounded (`timeoutMs`): a change whose transaction rolled back never comes back. Only routes that write get
 * the hooks (added as each route is registered): reads (GET, HEAD) change no session and pay nothing for this.
 * The changes are told apart by the cache's hold count, not by a per-request AsyncLocalStorage, whose promise hooks
 * would slow every request of the process (Node 20).
 */
export function registerSessionChangeEchoes(app: FastifyInstance, sessions: SessionCache, timeoutMs = 1000): void {
  const marks = new WeakMap<FastifyRequest, number>();
  const mark: preValidationHookHandler = (request, _reply, done) => {
    marks.set(request, sessions.holdMark());
    done();
  };
  const awaitEchoes: onSendHookHandler = (request, _reply, payload, done) => {
    const since = marks.get(request);
    if (since === undefined || sessions.holdMark() === since) return done(null, payload);
    // Never rejects: it resolves when heard, when the listener is lost, or at the timeout.
    void sessions.untilHeardSince(since, timeoutMs).then(() => done(null, payload));
  };
  const withHook = <T>(existing: T | T[] | undefined, hook: T): T[] => [
    ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
    hook,
  ];
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD")) return;
    route.preValidation = withHook(route.preValidation, mark);
    route.onSend = withHook(route.onSend, awaitEchoes);
  });
}
