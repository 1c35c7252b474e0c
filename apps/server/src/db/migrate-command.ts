import { loadConfig } from "../config.js";
import { openConfiguredDatabase } from "./client.js";
import { fillMissingConcurrentPeaks } from "./concurrent-peaks.js";

// Opening the database applies pending migrations (the server does the same at start), then the time logs' peaks
// that a migration added are counted, as the server's start would.
const config = loadConfig();
const database = await openConfiguredDatabase(config);
await fillMissingConcurrentPeaks(database.db);
await database.close();
console.log(`Migrations are current (${database.engine}).`);
