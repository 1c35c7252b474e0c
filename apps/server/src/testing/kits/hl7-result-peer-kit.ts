import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Debian's python3-hl7 (the system interpreter, not a pyenv one on PATH). */
const systemPython = "/usr/bin/python3";
const peerScript = fileURLToPath(new URL("../hl7-result-peer.py", import.meta.url));

/** What the python side read from one message with `hl7.parse` (see `testing/hl7-result-peer.py`). */
export type ReceivedResult = {
  type: string;
  controlId: string;
  sendingApplication: string;
  patientFamily: string;
  patientGiven: string;
  mrn: string;
  placer: string;
  filler: string;
  resultStatus: string;
  document?: string;
  parentDocument?: string;
  /** ORM (order status): ORC-1 and ORC-5. */
  orderControl?: string;
  orderStatus?: string;
  text: string | null;
  edSha256: string | null;
  edBytes: number | null;
  edType?: string;
};

export type ResultPeer = { port: number; received: () => ReceivedResult[]; stop: () => Promise<void> };

/**
 * Starts the hospital's chart (`testing/hl7-result-peer.py`, python3-hl7's asyncio MLLP server) on `port` (0: any),
 * answering AA or AE and recording what it read into `record` (JSON lines); resolves once it listens.
 */
export function startResultPeer(options: {
  record: string;
  port?: number;
  code?: "AA" | "AE";
  errorText?: string;
  /** Never answer the first message: a peer that took it and hangs. */
  silentFirst?: boolean;
}) {
  const args = [peerScript, "--record", options.record, "--port", String(options.port ?? 0)];
  if (options.code) args.push("--code", options.code);
  if (options.errorText) args.push("--error-text", options.errorText);
  if (options.silentFirst) args.push("--silent-first");
  const child = spawn(systemPython, args, { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise<ResultPeer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The HL7 result peer did not start: ${errors}`)), 10_000);
    child.once("exit", (code) => reject(new Error(`The HL7 result peer exited (${code}): ${errors}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /LISTENING (\d+)/.exec(chunk.toString());
      if (!match) return;
      clearTimeout(timer);
      resolve({
        port: Number(match[1]),
        received: () =>
          existsSync(options.record)
            ? readFileSync(options.record, "utf8")
                .split("\n")
                .filter((line) => line !== "")
                .map((line) => JSON.parse(line) as ReceivedResult)
            : [],
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            child.once("exit", () => done());
            child.kill("SIGTERM");
          }),
      });
    });
  });
}
