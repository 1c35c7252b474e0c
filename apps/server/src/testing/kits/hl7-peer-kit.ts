import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Debian's python3-hl7 (the system interpreter, not a pyenv one on PATH). */
const systemPython = "/usr/bin/python3";
const peerScript = fileURLToPath(new URL("../hl7-ack-peer.py", import.meta.url));

export type Hl7Peer = {
  port: number;
  /** The messages the peer received, segments separated by `\r`. */
  received: () => string[];
  stop: () => Promise<void>;
};

/**
 * Starts the hospital's side (`testing/hl7-ack-peer.py`, python3-hl7's asyncio MLLP server) answering every
 * message with `code`; resolves once it listens.
 */
export function startHl7Peer(options: { code?: "AA" | "AE" | "AR"; errorText?: string; record?: string } = {}) {
  const args = [peerScript, "--code", options.code ?? "AA"];
  if (options.errorText) args.push("--error-text", options.errorText);
  if (options.record) args.push("--record", options.record);
  const child = spawn(systemPython, args, { stdio: ["ignore", "pipe", "pipe"] });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => {
    errors += chunk.toString();
  });
  return new Promise<Hl7Peer>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`The HL7 peer did not start: ${errors}`)), 10_000);
    child.once("exit", (code) => reject(new Error(`The HL7 peer exited (${code}): ${errors}`)));
    child.stdout.on("data", (chunk: Buffer) => {
      const match = /LISTENING (\d+)/.exec(chunk.toString());
      if (!match) return;
      clearTimeout(timer);
      resolve({
        port: Number(match[1]),
        received: () =>
          options.record
            ? readFileSync(options.record, "utf8")
                .split("\n")
                .filter((line) => line !== "")
                .map((line) => line.replaceAll("|CR|", "\r"))
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
