import { parseArgs } from "node:util";
import { loadConfig } from "../../config.js";
import { openConfiguredDatabase } from "../../db/client.js";
import { rotateSigningKey } from "./fhir-push-keys.js";

const usage = `Usage: npm run fhir:rotate-key -w @vigil/server

Makes a new signing key for the assertions Vigil sends to hospitals' token endpoints (FHIR push) and retires the
active one. The retired key stays published at /fhir/.well-known/jwks.json, so an assertion signed a moment ago still
verifies; hospitals that registered the JWKS URL see the new key at their next fetch (see docs/design/FHIR.md, "Push").
With the embedded database the server must be stopped (the data folder's lock refuses otherwise).`;

async function main(argv: string[]): Promise<number> {
  let values: { help?: boolean };
  try {
    ({ values } = parseArgs({ args: argv, options: { help: { type: "boolean", short: "h" } } }));
  } catch (error) {
    console.error(`${(error as Error).message}\n\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  const config = loadConfig();
  const database = await openConfiguredDatabase(config);
  try {
    const kid = await rotateSigningKey(database.db);
    console.log(`The new signing key is ${kid}; the one before it is retired and still published.`);
    return 0;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
