import type { Readable } from "node:stream";
import { type CaseEvent, eventStreamFrameSchema } from "@vigil/contract";
import type { FastifyInstance } from "fastify";
import { readEventStream, type SseFrame } from "../../events/event-stream-reader.js";

export type OpenedStream = {
  frames: SseFrame[];
  status: number;
  headers: Record<string, unknown>;
  /** The whole answer of a refusal (JSON). */
  body: () => string;
  /** True once the server has ended the stream. */
  ended: () => boolean;
  close: () => void;
};

/**
 * Opens `GET /api/events` in-process as a browser would (the headers arrive at once) and collects its frames until
 * either side closes it.
 */
export async function openEventStreamAs(
  app: FastifyInstance,
  token: string,
  lastEventId?: string,
): Promise<OpenedStream> {
  const abort = new AbortController();
  const response = await app.inject({
    method: "GET",
    url: "/api/events",
    headers: {
      authorization: `Bearer ${token}`,
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    },
    payloadAsStream: true,
    signal: abort.signal,
  });
  const frames: SseFrame[] = [];
  let text = "";
  let ended = false;
  const body = response.stream() as Readable;
  if (response.statusCode >= 300) {
    body.on("data", (chunk: Buffer) => {
      text += chunk.toString("utf8");
    });
    body.on("end", () => {
      ended = true;
    });
  } else {
    readEventStream(body, (frame) => frames.push(frame)).then(
      () => {
        ended = true;
      },
      // The test hanging up ends the read with a premature close: the expected end.
      () => undefined,
    );
  }
  return {
    frames,
    status: response.statusCode,
    headers: response.headers,
    body: () => text,
    ended: () => ended,
    close: () => abort.abort(),
  };
}

/** Polls `read` every 10 ms until it answers something, or fails after `timeoutMs`. */
export async function until<T>(read: () => T | undefined, timeoutMs = 2000): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = read();
    if (value !== undefined) return value;
    if (Date.now() - started > timeoutMs) throw new Error("timed out waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

export const caseEventsOf = (stream: { frames: SseFrame[] }): CaseEvent[] =>
  stream.frames
    .filter((frame) => frame.event === "case")
    .map((frame) => eventStreamFrameSchema.parse({ event: "case", data: JSON.parse(frame.data) }).data as CaseEvent);
