import { writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";

/**
 * Loaded into the real server by bench/promoted-allocations.ts (`node --import …`): V8's sampling heap profiler in
 * the server's own process, started by the first SIGUSR2 and stopped by the second, which writes the profile to
 * HEAP_SAMPLING_OUT. With HEAP_SAMPLING_PROMOTED=1 it keeps only objects that outlived a scavenge (those the
 * young generation's collections did not free: what reaches the old generation), else every allocation.
 */
const session = new Session();
session.connect();
await session.post("HeapProfiler.enable");
let sampling = false;
process.on("SIGUSR2", () => {
  const step = sampling
    ? session.post("HeapProfiler.stopSampling").then(({ profile }) => {
        writeFileSync(process.env.HEAP_SAMPLING_OUT ?? "heap-sampling.json", JSON.stringify(profile));
      })
    : session.post("HeapProfiler.startSampling", {
        samplingInterval: 4096,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: process.env.HEAP_SAMPLING_PROMOTED !== "1",
      });
  sampling = !sampling;
  step.catch((error) => console.error("heap sampling:", error));
});
