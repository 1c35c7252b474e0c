import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import path from "node:path";

export type FolderLock = { release: () => void };

export class FolderLockedError extends Error {}

/**
 * An exclusive, pid-based lock on the embedded data folder. A pid file (rather than an mtime-refreshed lock
 * such as proper-lockfile's) lets a server killed with SIGKILL restart at once: a lock whose process is gone
 * is taken over, while a live holder is reported clearly and the folder is left untouched.
 */
export function acquireFolderLock(dataDir: string): FolderLock {
  const lockPath = path.join(dataDir, "vigil.lock");
  const owner = `${process.pid}@${hostname()}`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", 0o600);
      writeSync(fd, owner);
      closeSync(fd);
      return {
        release: () => {
          if (readOwner(lockPath) === owner) rmSync(lockPath, { force: true });
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = readOwner(lockPath);
      if (holder && isAlive(holder)) {
        throw new FolderLockedError(
          `The data folder ${dataDir} is in use by another Vigil process (${holder}). ` +
            "Stop that process, or set DATA_DIR to another folder. The embedded database cannot be shared; " +
            "use DATABASE_URL (PostgreSQL) to run several instances.",
        );
      }
      rmSync(lockPath, { force: true });
    }
  }
  throw new FolderLockedError(`Could not lock the data folder ${dataDir}.`);
}

function readOwner(lockPath: string): string | undefined {
  try {
    return readFileSync(lockPath, "utf8").trim();
  } catch {
    return undefined;
  }
}

function isAlive(owner: string): boolean {
  const [pidText, host] = owner.split("@");
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  // A lock written on another host (a shared folder) cannot be checked; treat it as held.
  if (host !== hostname()) return true;
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  return !isZombie(pid);
}

/**
 * A process killed with SIGKILL whose parent has not reaped it yet still answers signal 0, for a second or two (or
 * for good, under a parent that never reaps); it holds no file open and writes nothing, so its lock is dead.
 * Linux tells through /proc/<pid>/stat (the state letter follows the command name in parentheses); elsewhere the
 * process counts as alive, as before.
 */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat
      .slice(stat.lastIndexOf(")") + 1)
      .trim()
      .startsWith("Z");
  } catch {
    return false;
  }
}
