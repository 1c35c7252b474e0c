import type { FastifyInstance } from "fastify";

/**
 * Every answer says `x-request-id`, the `reqId` of the server's log lines about it, so an operator can go from a
 * user's failed request to its log lines. Set as the request arrives, before authentication, so refusals and errors
 * carry it too (the router's own refusals, which run no hook, set it in `answerFrameworkError`). An id the caller
 * sends is not taken: it would let anyone write what they like into the log's correlation key.
 *
 * What logs while serving a request logs through the request's logger (`request.log`, which binds `reqId`): a
 * service given the app's logger takes the request's with the call (`MessageService.send`'s `log`, the identity
 * calls' `CallContext.log`). Not an AsyncLocalStorage holding the id: in Node 20 one turns on promise hooks for
 * every promise of the process, a cost every request pays.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    done();
  });
}
