import { createServer } from "node:net";

/**
 * A TCP port free on 127.0.0.1 right now: the operating system picks one for a listener that is closed at once.
 * For servers that tests and the bench start, several of which run side by side.
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.unref();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
