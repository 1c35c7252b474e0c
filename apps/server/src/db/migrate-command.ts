import { loadConfig } from "../config.js";
import { openConfiguredDatabase } from "./client.js";

// Opening the database applies pending migrations (the server does the same at start).
const config = loadConfig();
const database = await openConfiguredDatabase(config);
await database.close();
console.log(`Migrations are current (${database.engine}).`);
