import { spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { findFreePort } from "../apps/server/src/testing/free-port.js";
import { resultsDir } from "./config.js";

/** A server process the bench started: its URL, the pid whose memory is sampled, and how to stop it. */
export type BenchProcess = {
  label: string;
  baseURL: string;
  /** The node process that runs the app (tsx starts node as a child; under tsx, this is that child). */
  appPid: number;
  log: string;
  stop: () => Promise<void>;
  /** The bearer token of the server's GET /metrics, where it serves one (server-latency.ts). */
  metricsToken?: string;
};

/**
 * Starts `command args…` in `cwd` detached (its own process group, so stopping the group stops tsx and the node it
 * starts too), with its output in bench-results/<name>.log, and waits until `ready` answers.
 */
export async function startProcess(options: {
  label: string;
  name: string;
  cwd: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  ready: (baseURL: string) => Promise<boolean>;
}): Promise<BenchProcess> {
  const port = await findFreePort();
  const baseURL = `http://127.0.0.1:${port}`;
  mkdirSync(resultsDir, { recursive: true });
  const log = path.join(resultsDir, `${options.name}.log`);
  const logFd = openSync(log, "w");
  const child = spawn(options.command, options.args, {
    cwd: options.cwd,
    env: { ...options.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: baseURL },
    stdio: ["ignore", logFd, logFd],
    detached: true,
  });
  closeSync(logFd);
  child.unref();
  const pid = child.pid;
  if (!pid) throw new Error(`${options.label} could not be started.`);
  let exited: number | null | undefined;
  child.once("exit", (code) => {
    exited = code;
  });
  const stop = () => stopGroup(pid);
  try {
    const deadline = Date.now() + 180_000;
    for (;;) {
      if (exited !== undefined) throw new Error(`${options.label} exited (code ${exited}). Its log:\n${tail(log)}`);
      if (await options.ready(baseURL).catch(() => false)) break;
      if (Date.now() > deadline)
        throw new Error(`${options.label} did not answer within 180 s. Its log:\n${tail(log)}`);
      await sleep(250);
    }
    return { label: options.label, baseURL, appPid: appProcessOf(pid), log, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/**
 * The server's own start script (apps/server/start.sh, which `npm start -w @vigil/server` runs), without npm in
 * between, so the bench measures the process, the V8 flags and the environment (the C library's allocator settings
 * on the embedded database) that production runs. Arguments after the script are node's own options.
 */
export function serverStartCommand(serverDir: string): { command: string; args: string[] } {
  return { command: "/bin/sh", args: [path.join(serverDir, "start.sh")] };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function tail(file: string): string {
  try {
    return readFileSync(file, "utf8").split("\n").slice(-40).join("\n");
  } catch {
    return "(no log)";
  }
}

/** SIGTERM to the process group (graceful stop: PGlite's folder lock is released), SIGKILL after 20 s. */
async function stopGroup(pid: number): Promise<void> {
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pid, name);
    } catch {
      // Already gone.
    }
  };
  if (!alive(pid)) return;
  signal("SIGTERM");
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline) {
    if (!alive(pid)) return;
    await sleep(100);
  }
  signal("SIGKILL");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The process that runs the app: tsx starts node as a child (and esbuild beside it), so among `pid` and its
 * descendants, the one holding the most memory once the app answers — the app's own node process (`pid` itself
 * when node was started directly).
 */
function appProcessOf(pid: number): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      // pid (comm) state ppid …: comm may hold spaces and parentheses, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(Number(entry), ppid);
    } catch {
      // The process ended meanwhile.
    }
  }
  const family = [pid];
  for (let index = 0; index < family.length; index++) {
    for (const [child, parent] of parents) if (parent === family[index]) family.push(child);
  }
  return family.reduce((best, candidate) => ((rssMb(candidate) ?? 0) > (rssMb(best) ?? 0) ? candidate : best), pid);
}

/** Resident memory of a process in MB (VmRSS), or undefined once it is gone. */
export function rssMb(pid: number): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used, in clock ticks (1/100 s). */
function cpuTicks(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After "pid (comm) ": state is field 0, utime field 11, stime field 12.
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return undefined;
  }
}

/**
 * Waits until the app has finished what an earlier run left in flight (a load run stops sending, but requests
 * already taken are still computed): its process under 5% of a core for half a second and, when given, no active
 * statement on its database. Gives up after two minutes and says so.
 */
export async function waitForQuiet(pid: number, activeStatements?: () => Promise<number>): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < 120_000) {
    const before = cpuTicks(pid);
    await sleep(500);
    const after = cpuTicks(pid);
    if (before === undefined || after === undefined) return Date.now() - started;
    const busy = (after - before) / 50;
    if (busy < 0.05 && (!activeStatements || (await activeStatements()) === 0)) return Date.now() - started;
  }
  console.warn(`[bench] the app (pid ${pid}) was still busy after 120 s; measuring anyway`);
  return Date.now() - started;
}

/** Samples a process's RSS every 200 ms between start() and stop(); stop() gives the maximum seen. */
export function rssSampler(pid: number) {
  let max = 0;
  let timer: NodeJS.Timeout | undefined;
  const sample = () => {
    const value = rssMb(pid);
    if (value !== undefined && value > max) max = value;
  };
  return {
    start() {
      max = 0;
      sample();
      timer = setInterval(sample, 200);
    },
    stop(): number {
      if (timer) clearInterval(timer);
      sample();
      return Math.round(max * 10) / 10;
    },
  };
}

/** A progress line of the bench, stamped with the time of day (UTC). */
export const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);
