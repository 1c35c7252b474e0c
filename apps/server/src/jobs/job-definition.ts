import type { FastifyBaseLogger } from "fastify";
import type { z } from "zod";
import type { Db } from "../db/client.js";

/** What a handler is given besides its payload. */
export type JobContext = {
  db: Db;
  log: FastifyBaseLogger;
  jobId: string;
  /** 1 on the first try; a try cut short by a crash counts too. */
  attempt: number;
  /** Aborted when the kind's timeout passes or the instance stops: a long handler should end early then. */
  signal: AbortSignal;
};

export type RetryPolicy = {
  /** Attempts in all, the first included; after the last one fails the job is kept `failed`. */
  limit: number;
  /** Wait before attempt n+1: `baseMs * 2^(n-1)`, capped at `maxMs`. */
  backoff: { baseMs: number; maxMs: number };
};

export type JobDefinition<Payload = unknown> = {
  kind: string;
  payload: z.ZodType<Payload>;
  /**
   * Runs at least once per job, and again when a try fails or its instance dies mid-way (the lease runs out):
   * it must be idempotent — finish what a cut-short try began, never do twice what a try already did
   * (docs/design/JOBS.md, "At least once").
   */
  handle: (payload: Payload, context: JobContext) => Promise<void>;
  retry: RetryPolicy;
  /**
   * How long one try may take; past it the try is failed. The lease (after which another instance may take the job
   * over) is a little longer, `leaseMsOf`, so a timed-out try is recorded before anyone else can take its job.
   */
  timeoutMs: number;
  /** A recurring kind: one job per period of `everyMs` across all instances (payload: the period's start). */
  every?: { ms: number; payload: (periodStart: Date) => Payload };
  /** The self-check's limit: the oldest waiting job of this kind may not be older than this. */
  maxWaitMs?: number;
};

/**
 * Thrown by a handler whose try failed in a way no retry can mend (the peer refused the work itself): the job is kept
 * `failed` at once, with this message, and only an administrator's Retry runs it again.
 */
export class JobFailedForGood extends Error {}

export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  if (definition.retry.limit < 1) throw new Error(`Job kind ${definition.kind}: retry.limit must be at least 1.`);
  if (definition.timeoutMs <= 0) throw new Error(`Job kind ${definition.kind}: timeoutMs must be positive.`);
  return definition;
}

/** The wait before the next attempt after `attempts` tries have failed. */
export function backoffMs(retry: RetryPolicy, attempts: number): number {
  return Math.min(retry.backoff.maxMs, retry.backoff.baseMs * 2 ** Math.max(0, attempts - 1));
}

/** The claim's lease: the timeout, and time to record the try's ending after it. */
export function leaseMsOf(definition: { timeoutMs: number }): number {
  return Math.ceil(definition.timeoutMs * 1.5) + 1000;
}
