// The server's CSP forbids eval. Zod 4 compiles object parsers with `new Function` (and probes for it, which the
// browser reports as a CSP violation) unless `jitless` is set before the first schema is created. The contract's
// schemas are created while the bundle's chunks load, before any code of ours could run, so the flag is set here:
// a deferred classic script executes ahead of the module scripts that follow it.
globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });
