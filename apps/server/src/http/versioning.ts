import { versionEtag } from "@vigil/contract";
import type { FastifyReply } from "fastify";
import { AppError } from "../errors/app-error.js";

/**
 * Optimistic concurrency for PUT (PRODUCT.md §8): the caller sends back, in `If-Match`, the version it read
 * (the `ETag` of its GET). Accepts `"3"`, `3` and `W/"3"`, or a list of them. `*` is refused: it would let a
 * write through without saying what it was based on, which is exactly the silent overwrite this prevents.
 */
export function readIfMatch(header: string | undefined): number[] {
  const value = header?.trim();
  if (!value || value === "*") {
    throw new AppError(
      "precondition_required",
      "This change needs an If-Match header with the version you last read (the ETag of the GET).",
    );
  }
  const versions = value.split(",").map((tag) => {
    const bare = tag
      .trim()
      .replace(/^W\//, "")
      .replace(/^"(.*)"$/, "$1");
    return /^[1-9]\d{0,9}$/.test(bare) ? Number(bare) : Number.NaN;
  });
  if (versions.some(Number.isNaN)) {
    const issue = { path: "headers.if-match", message: 'must be the version you read, e.g. "3"' };
    throw new AppError("bad_request", `Invalid request: ${issue.path} ${issue.message}`, { issues: [issue] });
  }
  return versions;
}

/** 412 when the stored version is not one the caller read; the current state travels in `details.current`. */
export function assertVersion(expected: readonly number[], current: { version: number }, describe: () => unknown) {
  if (expected.includes(current.version)) return;
  throw new AppError(
    "precondition_failed",
    `This record was changed by someone else since you read it (you have version ${expected.join(", ")}, the current one is ${current.version}). Reload it and apply your changes again.`,
    { current: describe(), currentVersion: current.version },
    { etag: versionEtag(current.version) },
  );
}

export function sendEtag(reply: FastifyReply, version: number): void {
  reply.header("etag", versionEtag(version));
}
