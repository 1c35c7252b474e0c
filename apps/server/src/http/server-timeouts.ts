import type { ServerOptions } from "node:http";
import type { Config } from "../config.js";

/**
 * Node's HTTP server options that bound how long a client may take to send a request (REQUEST_TIMEOUT_SECONDS), for
 * the app's listener (app.ts) and the HTTPS one. The headers get the same limit (Node refuses a longer one), and the
 * expired requests are looked for at least every second: Node's default sweep runs every 30 s, which would double
 * the wait. Only requests still being received are timed: a slow answer (a large report) is not cut short.
 */
export function serverTimeouts(
  config: Pick<Config, "requestTimeoutMs">,
): Required<Pick<ServerOptions, "requestTimeout" | "headersTimeout" | "connectionsCheckingInterval">> {
  const limit = config.requestTimeoutMs;
  return {
    requestTimeout: limit,
    headersTimeout: limit,
    connectionsCheckingInterval: Math.min(1000, Math.max(100, Math.floor(limit / 4))),
  };
}
