import { eventRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import type { CaseEventHub } from "../../events/case-event-hub.js";
import { registerRoute } from "../../http/register-route.js";
import type { SessionCache } from "../../identity/session-cache.js";
import {
  defaultEventStreamSettings,
  type EventStreamSettings,
  type EventStreams,
  endEventStreams,
  openEventStream,
  recheckEventStreams,
} from "./events-service.js";

/**
 * The live event stream (`GET /api/events`). The app's hub is closed with the app; open streams end first (in
 * `preClose`, before the server waits for its connections), so `app.close()` never waits on a browser. Every change
 * to sign-ins the instance's session cache hears makes the streams it concerns check their caller again at once.
 */
export function registerEventRoutes(
  app: FastifyInstance,
  db: Db,
  hub: CaseEventHub,
  sessions: Pick<SessionCache, "onChange">,
  settings: Partial<EventStreamSettings> = {},
): void {
  const streams: EventStreams = {
    db,
    hub,
    settings: Object.assign({}, defaultEventStreamSettings, settings),
    open: new Map(),
    lastPrunedAt: 0,
    log: app.log,
  };
  const stopWatching = sessions.onChange((change) => recheckEventStreams(streams, change));
  app.addHook("preClose", async () => {
    stopWatching();
    endEventStreams(streams);
  });
  app.addHook("onClose", async () => hub.close());

  registerRoute(app, "streamEvents", eventRoutes.streamEvents, async ({ principal, request, reply }) => {
    // A proxy that buffers answers (nginx does by default) would hold events back until its buffer fills.
    reply.header("x-accel-buffering", "no");
    return openEventStream(streams, principal, request.headers["last-event-id"] as string | undefined, () =>
      app.authenticate(request),
    );
  });
}
