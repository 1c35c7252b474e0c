import { loadConfig } from "../config.js";
import { openConfiguredDatabase } from "../db/client.js";
import { seedIfEmpty } from "./seed-demo-data.js";

const config = loadConfig();
const database = await openConfiguredDatabase(config);
const quietLog = { info: () => undefined } as unknown as Parameters<typeof seedIfEmpty>[2];
const seeded = await seedIfEmpty(database.db, config, quietLog);
if (seeded.length === 0) console.log("The database already has users; nothing was seeded.");
await database.close();
