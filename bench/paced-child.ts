import { drivePaced } from "./paced-load.js";

/**
 * The paced load generator's own process (paced-generator.ts starts it): each message from the parent is one paced
 * run, answered with its result and every request's latency. Apart from the bench's process, its timers are not held
 * up by autocannon's garbage or the bench's bookkeeping, and its heap stays small, so its own collections are short.
 */

type Request = { id: number; options: Omit<Parameters<typeof drivePaced>[0], "onAnswer"> };

process.on("message", (message: Request) => {
  const latencies: number[] = [];
  drivePaced({ ...message.options, onAnswer: (_dueAt, latency) => latencies.push(latency) }).then(
    (result) => process.send?.({ id: message.id, result, latencies }),
    (error: unknown) => process.send?.({ id: message.id, error: String(error) }),
  );
});
// It runs in a session of its own (paced-generator.ts): it goes when the bench does, however the bench ends.
process.on("disconnect", () => process.exit(0));
process.send?.({ ready: true });
