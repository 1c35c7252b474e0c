import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onSendHookHandler,
  preValidationHookHandler,
} from "fastify";
import type { SessionCache } from "./session-cache.js";
import { collectSessionChanges, type SessionChange } from "./session-changes.js";

/**
 * A request that changed what the session check answers (a sign-in revoked, a user disabled, groups changed) answers
 * only once its own notification has come back to this instance. PostgreSQL signals every listening connection at
 * the same commit, so by the time the caller reads "done", every other instance has been sent the change too, and a
 * next call there — the revoked token, the user's next page — is not answered from a memory that has not heard it
 * yet. Bounded (`timeoutMs`): a change whose transaction rolled back never comes back. Only routes that write get
 * the hooks (added as each route is registered): reads (GET, HEAD) change no session and pay nothing for this.
 */
export function registerSessionChangeEchoes(app: FastifyInstance, sessions: SessionCache, timeoutMs = 1000): void {
  const written = new WeakMap<FastifyRequest, SessionChange[]>();
  // After body parsing: the parser's stream callbacks run outside the context an earlier hook would have opened.
  const collect: preValidationHookHandler = (request: FastifyRequest, _reply: FastifyReply, done) => {
    const changes: SessionChange[] = [];
    written.set(request, changes);
    collectSessionChanges(changes, done as () => void);
  };
  const awaitEchoes: onSendHookHandler = (request, _reply, payload, done) => {
    const nonces = written.get(request)?.map((change) => change.nonce) ?? [];
    if (nonces.length === 0) return done(null, payload);
    sessions.untilHeard(nonces, timeoutMs).then(
      () => done(null, payload),
      (error: Error) => (done as HookHandlerDoneFunction)(error),
    );
  };
  const withHook = <T>(existing: T | T[] | undefined, hook: T): T[] => [
    ...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]),
    hook,
  ];
  app.addHook("onRoute", (route) => {
    const methods = [route.method].flat();
    if (methods.every((method) => method === "GET" || method === "HEAD")) return;
    route.preValidation = withHook(route.preValidation, collect);
    route.onSend = withHook(route.onSend, awaitEchoes);
  });
}
