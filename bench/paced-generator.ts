import { type ChildProcess, fork } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { LoadResult } from "./load.js";
import type { drivePaced } from "./paced-load.js";
import { log } from "./processes.js";

/**
 * The paced runs' load generator in a process of its own (paced-child.ts), started once per bench. In the bench's
 * process its timers waited behind autocannon's garbage and the bookkeeping of four servers, and a request that
 * leaves late counts its wait in its latency (it is timed from its due time). The child gets a small heap, so its own
 * collections are short, and a higher scheduling priority where the OS allows it (root): on a machine of two cores
 * it shares the cores with the server and PostgreSQL, where a real client would not. Linux with autogroups
 * (`/proc/sys/kernel/sched_autogroup_enabled`) weighs sessions against each other before processes, and the servers
 * run in sessions of their own (processes.ts), so the child gets a session of its own and that session the priority;
 * a process's own niceness only orders it within its session.
 */

export type PacedOptions = Omit<Parameters<typeof drivePaced>[0], "onAnswer">;
export type PacedAnswer = { result: LoadResult; latencies: number[] };

type Reply = { id: number; result?: LoadResult; latencies?: number[]; error?: string };

export type PacedGenerator = {
  drive: (options: PacedOptions) => Promise<PacedAnswer>;
  stop: () => void;
};

const childScript = path.join(import.meta.dirname, "paced-child.ts");
/** Niceness asked for the generator: above the servers' 0, as the CPU a remote client would have. */
const generatorNiceness = -10;

/** Raises the child's session and the child itself, as far as allowed; says what it got. */
function prioritize(pid: number): string {
  const got: string[] = [];
  try {
    writeFileSync(`/proc/${pid}/autogroup`, String(generatorNiceness));
    got.push(`its session's niceness ${generatorNiceness}`);
  } catch (error) {
    got.push(`its session's niceness unchanged (${(error as Error).message})`);
  }
  try {
    os.setPriority(pid, generatorNiceness);
    got.push(`its own ${generatorNiceness}`);
  } catch (error) {
    got.push(`its own unchanged (${(error as Error).message})`);
  }
  return got.join(", ");
}

export async function startPacedGenerator(): Promise<PacedGenerator> {
  // process.execArgv carries tsx's loader, which the child needs for its TypeScript.
  const child: ChildProcess = fork(childScript, [], {
    execArgv: [...process.execArgv, "--max-old-space-size=64", "--max-semi-space-size=1"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    detached: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.once("message", () => resolve());
    child.once("exit", (code) => reject(new Error(`the paced load generator exited (${code}) before it was ready`)));
  });
  log(`paced load generator: pid ${child.pid}, ${prioritize(child.pid as number)}`);
  const waiting = new Map<number, { resolve: (answer: PacedAnswer) => void; reject: (error: Error) => void }>();
  child.on("message", (reply: Reply) => {
    const entry = waiting.get(reply.id);
    if (!entry) return;
    waiting.delete(reply.id);
    if (reply.result && reply.latencies) entry.resolve({ result: reply.result, latencies: reply.latencies });
    else entry.reject(new Error(`the paced load generator failed: ${reply.error}`));
  });
  child.on("exit", (code) => {
    for (const entry of waiting.values()) entry.reject(new Error(`the paced load generator exited (${code})`));
    waiting.clear();
  });
  let next = 0;
  return {
    drive: (options) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, { resolve, reject });
        child.send({ id, options });
      }),
    stop: () => {
      child.kill();
    },
  };
}
