/**
 * Stops the server started by global setup: SIGTERM to its process group (tsx and the node it runs), a grace
 * period for the graceful shutdown that releases the PGlite lock, then SIGKILL.
 */
export async function stopServer(pid: number): Promise<void> {
  if (!isRunning(pid)) return;
  signalGroup(pid, "SIGTERM");
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (!isRunning(pid)) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  signalGroup(pid, "SIGKILL");
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    try {
      process.kill(pid, signal);
    } catch {
      // Already gone.
    }
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
