import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { FastifyInstance } from "fastify";
import type { Config } from "./config.js";
import { serverTimeouts } from "./http/server-timeouts.js";
import { answerClientError } from "./plugins/envelope.js";

/**
 * A second listener speaking HTTPS (TLS_CERT_FILE/TLS_KEY_FILE on HTTPS_PORT) in front of the same app: Amplify
 * reaches the hosted UI only at `https://<domain>`, so on a machine without a TLS-terminating proxy this is how
 * `https://localhost:3443/oauth2/…` answers. Every route of the app is served on it, through the same router.
 * Part of the process (server.ts starts it), not of identity: it only carries the app.
 */
export async function listenOnHttps(
  app: FastifyInstance,
  config: Config,
): Promise<{ url: string; close: () => Promise<void> } | undefined> {
  const listener = config.httpsListener;
  if (!listener) return undefined;
  const read = (file: string, variable: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw new Error(`${variable} cannot be read (${file}): ${(error as Error).message}`);
    }
  };
  const server: Server = createServer(
    {
      cert: read(listener.certFile, "TLS_CERT_FILE"),
      key: read(listener.keyFile, "TLS_KEY_FILE"),
      // The same limit on slow or unfinished requests as the app's own listener, answered the same way.
      ...serverTimeouts(config),
    },
    (request, response) => app.routing(request, response),
  );
  server.on("clientError", answerClientError(app.enoch));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(listener.port, config.host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : listener.port;
  return {
    url: `https://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
