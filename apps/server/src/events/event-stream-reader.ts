/** One frame of a server-sent event stream as a client sees it. */
export type SseFrame = { event: string; data: string; id?: string };

/**
 * Reads a `text/event-stream` body frame by frame (the SSE wire format: `field: value` lines, a blank line ends a
 * frame, `:` lines are comments). For the stream's own tests, the two-instance test and the bench, which read the
 * stream the way a browser's client does.
 */
export async function readEventStream(
  body: AsyncIterable<Uint8Array | string>,
  onFrame: (frame: SseFrame) => void,
): Promise<void> {
  const decoder = new TextDecoder();
  let buffer = "";
  for await (const chunk of body) {
    buffer += typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const frame = parseFrame(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (frame) onFrame(frame);
      end = buffer.indexOf("\n\n");
    }
  }
}

function parseFrame(text: string): SseFrame | undefined {
  const frame: SseFrame = { event: "message", data: "" };
  const data: string[] = [];
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "event") frame.event = value;
    else if (field === "data") data.push(value);
    else if (field === "id") frame.id = value;
  }
  if (data.length === 0) return undefined;
  frame.data = data.join("\n");
  return frame;
}

type Injectable = {
  inject: (options: InjectOptions & { payloadAsStream: true; signal: AbortSignal }) => Promise<{
    statusCode: number;
    headers: Record<string, unknown>;
    stream: () => AsyncIterable<Uint8Array>;
  }>;
};
type InjectOptions = { method: string; url: string; headers?: Record<string, string>; payload?: string | object };

export type StreamHead = {
  statusCode: number;
  headers: Record<string, unknown>;
  /** The whole body of a refusal (JSON), or the first frame's text of an open stream. */
  body: string;
  json: () => unknown;
  firstFrame?: SseFrame;
};

/**
 * Calls an event-stream route in-process and hangs up after the first frame: an open stream never ends by itself, so
 * tests that walk every route (the authorization matrix, the fuzzer) read a refusal whole and a stream's head only.
 */
export async function injectStreamHead(app: Injectable, options: InjectOptions): Promise<StreamHead> {
  const abort = new AbortController();
  const response = await app.inject({ payloadAsStream: true, signal: abort.signal, ...options });
  let body = "";
  let firstFrame: SseFrame | undefined;
  const decoder = new TextDecoder();
  try {
    if (response.statusCode >= 300) {
      for await (const chunk of response.stream()) body += decoder.decode(chunk, { stream: true });
    } else {
      const frames = readEventStream(response.stream(), (frame) => {
        firstFrame ??= frame;
        abort.abort();
      });
      await Promise.race([frames, new Promise((resolve) => setTimeout(resolve, 5000))]);
    }
  } catch {
    // The abort ends the read with an error once the first frame is in.
  } finally {
    abort.abort();
  }
  if (firstFrame) body = firstFrame.data;
  return { statusCode: response.statusCode, headers: response.headers, body, json: () => JSON.parse(body), firstFrame };
}
