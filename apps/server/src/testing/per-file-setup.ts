import { resetSampleTimeLogs } from "./kits/records-kit.js";

// Runs before every test file (vitest.config.ts `setupFiles`), including when files share a worker's modules: the
// kits' state that a file relies on starting fresh is reset here. Counters that only need to stay unique (codes,
// MRNs) are left to grow.
resetSampleTimeLogs();
