import { AsyncLocalStorage } from "node:async_hooks";
import type { FastifyInstance, FastifyServerOptions } from "fastify";

/**
 * The id of the request being served (Fastify's `request.id`, a random UUID from `genReqId`), for log lines written
 * through a logger that is not the request's own: services given `app.log` (messages, the session cache) log
 * inside a request too, and those lines must carry its id as well (docs/operations.md, "Logs").
 */
const currentRequestId = new AsyncLocalStorage<string>();

/**
 * Every answer says `x-request-id`, the `reqId` of the server's log lines about it, so an operator can go from a
 * user's failed request to its log lines. Set as the request arrives, before authentication, so refusals and errors
 * carry it too (the router's own refusals, which run no hook, set it in `answerFrameworkError`). An id the caller
 * sends is not taken: it would let anyone write what they like into the log's correlation key.
 */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook("onRequest", (request, reply, done) => {
    reply.header("x-request-id", request.id);
    currentRequestId.run(request.id, done);
  });
}

type LoggerOptions = FastifyServerOptions["logger"];

/**
 * The logger's options with a pino `mixin` that adds `reqId` to a line written while a request is served, unless the
 * line already has it (the request's own child logger binds it).
 */
export function withRequestIds(logger: LoggerOptions): LoggerOptions {
  if (!logger) return logger;
  const options = logger === true ? {} : logger;
  const ownMixin = options.mixin;
  // biome-ignore lint/plugin/leading-spread-then-keys: this mixin replaces the options' own (it calls it)
  return {
    ...options,
    mixin: (mergeObject, level, pinoLogger) => {
      const own = ownMixin ? ownMixin(mergeObject, level, pinoLogger) : {};
      const reqId = currentRequestId.getStore();
      if (reqId === undefined || "reqId" in mergeObject || "reqId" in own) return own;
      if ((pinoLogger.bindings() as { reqId?: unknown }).reqId !== undefined) return own;
      return { reqId, ...own };
    },
  };
}
