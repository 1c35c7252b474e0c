import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";
import { openConfiguredDatabase } from "./db/client.js";
import { fillMissingConcurrentPeaks } from "./db/concurrent-peaks.js";
import { FolderLockedError } from "./db/folder-lock.js";
import type { MllpListener } from "./hl7/mllp-listener.js";
import { listenOnHttps } from "./https-listener.js";
import { startConfiguredInboundListener } from "./modules/interfaces/inbound-listener.js";
import { rebuildCaseClocksIfNeeded } from "./modules/watch/watch-service.js";
import { seedIfEmpty } from "./seed/seed-demo-data.js";

/** The process: configuration, database, app, listen, and a graceful stop on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  const app = await buildApp({ config, database, runJobs: true });
  // The board's kept clocks of a database from before them, a restored backup or a bulk load (PRODUCT.md §10).
  const rebuilt = await rebuildCaseClocksIfNeeded(database.db);
  if (rebuilt > 0) app.log.info({ cases: rebuilt }, "rebuilt the kept service clocks of the open cases");
  // Time logs from before their kept concurrent-patient peaks (a migrated database, a restored backup, a bulk load).
  const peaks = await fillMissingConcurrentPeaks(database.db);
  if (peaks > 0) app.log.info({ logs: peaks }, "counted the concurrent-patient peaks of the time logs");
  if (config.seed === "demo") await seedIfEmpty(database.db, config, app.log);

  let https: Awaited<ReturnType<typeof listenOnHttps>>;
  let mllp: MllpListener | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      app.log.error("shutdown took too long; exiting");
      process.exit(1);
    }, 10_000);
    force.unref();
    try {
      // Hospitals' messages first: each one in hand is stored and acknowledged before the database closes.
      await mllp?.close();
      await https?.close();
      await app.close();
      await database.close();
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, "error while shutting down");
      process.exit(1);
    }
  };
  process.once("SIGTERM", () => void stop("SIGTERM"));
  process.once("SIGINT", () => void stop("SIGINT"));

  await app.listen({ port: config.port, host: config.host });
  app.log.info(
    {
      url: config.publicUrl,
      database: database.engine,
      dataDir: database.engine === "pglite" ? config.dataDir : undefined,
    },
    `Vigil is running at ${config.publicUrl}`,
  );
  https = await listenOnHttps(app, config);
  if (https) app.log.info({ url: https.url }, `Vigil also answers over HTTPS at ${https.url}`);
  if (config.hl7.listener) {
    mllp = await startConfiguredInboundListener(database.db, config.hl7.listener, app.log);
    const scheme = config.hl7.listener.tls ? "MLLP over TLS" : "MLLP";
    app.log.info({ port: mllp.port }, `HL7 v2 messages are taken by ${scheme} on port ${mllp.port}`);
  }
  if (config.federation) {
    const { providerName, hostedUiOrigin } = config.federation;
    app.log.info({ hostedUi: hostedUiOrigin }, `Federated sign-in with ${providerName} through ${hostedUiOrigin}`);
  }
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError || error instanceof FolderLockedError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
