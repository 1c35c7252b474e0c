import { eventRoutes } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import type { Db } from "../../db/client.js";
import type { CaseEventHub } from "../../events/case-event-hub.js";
import { registerRoute } from "../../http/register-route.js";
import {
  defaultEventStreamSettings,
  type EventStreamSettings,
  type EventStreams,
  endEventStreams,
  openEventStream,
} from "./events-service.js";

/**
 * The live event stream (`GET /api/events`). The app's hub is closed with the app; open streams end first (in
 * `preClose`, before the server waits for its connections), so `app.close()` never waits on a browser.
 */
export function registerEventRoutes(
  app: FastifyInstance,
  db: Db,
  hub: CaseEventHub,
  settings: Partial<EventStreamSettings> = {},
): void {
  const streams: EventStreams = {
    db,
    hub,
    settings: { ...defaultEventStreamSettings, ...settings },
    open: new Set(),
    lastPrunedAt: 0,
    log: app.log,
  };
  app.addHook("preClose", async () => endEventStreams(streams));
  app.addHook("onClose", async () => hub.close());

  registerRoute(app, "streamEvents", eventRoutes.streamEvents, async ({ principal, request, reply }) => {
    // A proxy that buffers answers (nginx does by default) would hold events back until its buffer fills.
    reply.header("x-accel-buffering", "no");
    return openEventStream(streams, principal, request.headers["last-event-id"] as string | undefined, () =>
      app.authenticate(request),
    );
  });
}
