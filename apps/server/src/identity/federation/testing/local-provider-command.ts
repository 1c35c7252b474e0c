import { type LocalProviderOptions, startLocalProvider } from "./local-provider.js";

/**
 * Runs the local OpenID Connect provider as its own process (for the e2e journeys and for trying federated sign-in
 * by hand): `tsx local-provider-command.ts '<LocalProviderOptions as JSON>'`. Prints one JSON line with the
 * issuer once it listens; stops on SIGTERM or SIGINT.
 */
const options = JSON.parse(process.argv[2] ?? "{}") as LocalProviderOptions;
const provider = await startLocalProvider(options);
console.log(JSON.stringify({ issuer: provider.issuer }));
const stop = () => void provider.close().then(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
