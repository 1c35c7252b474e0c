import { route } from "../route-definition.js";
import { eventStreamFrameSchema, eventStreamHeadersSchema } from "../schemas/events.js";

/**
 * The live event stream (PRODUCT.md §10: the board, the queues and the case screen update by themselves): every
 * committed write to a case, on every instance. Open to anyone signed in; case events reach only callers allowed
 * `cases:read`, judged again on every event from the user's current groups.
 */
export const eventRoutes = {
  streamEvents: route({
    method: "GET",
    path: "/api/events",
    summary:
      "Server-sent events: every committed write to a case (event `case`), `reset` when the client must re-read, " +
      "a `: heartbeat` comment every 15 s; send `Last-Event-ID` to replay what came after it",
    tags: ["events"],
    access: "signed-in",
    headers: eventStreamHeadersSchema,
    response: eventStreamFrameSchema,
    responseKind: "event-stream",
  }),
} as const;
