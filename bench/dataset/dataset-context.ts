import type { Author, RecordKind } from "@vigil/contract";
import type { SeededRandom } from "./seeded-random.js";
import type { Sink, TableSpec } from "./table-specs.js";

/** What every step of the generator shares: the options, the one random sequence, the rows out and the counts. */

export type DatasetOptions = {
  /** 1: 50 clients, 200 users, 100,000 cases, 1,000,000 time logs; 0.1: a tenth of each. */
  scale: number;
  /** The argon2 hash every generated user gets (no one signs in as them) and the bench user's own. */
  passwordHash: string;
  benchUser: { username: string; name: string };
  now: Date;
  seed?: number;
  /** Called every few thousand cases. */
  progress?: (done: number, total: number) => void;
};

export type DatasetSummary = {
  clients: number;
  users: number;
  cases: number;
  byStage: Record<string, number>;
  timeLogs: number;
  runningTimeLogs: number;
  records: number;
  revisions: number;
  patientDetailsRevisions: number;
  auditEvents: number;
  caseNumberSequence: number;
  rows: Record<string, number>;
};

export const hour = 3_600_000;
export const minute = 60_000;
export const day = 24 * hour;

export type Person = Author & { sub: string; groups: string[] };
export type Stage = "intake" | "monitoring" | "preview" | "reviewed" | "closed";
export type ClientInfo = {
  id: string;
  name: string;
  code: string;
  timezone: string;
  archived: boolean;
  protocols: { id: string; at: number; thresholdKohm: number }[];
  contacts: { id: string; name: string }[];
  weight: number;
};

/** Every row counted per table, so the summary says what was written. */
export class CountingSink {
  readonly counts: Record<string, number> = {};
  constructor(private readonly sink: Sink) {}
  row(spec: TableSpec, values: readonly unknown[]): void {
    this.counts[spec.name] = (this.counts[spec.name] ?? 0) + 1;
    this.sink.write(spec, spec.encode(values));
  }
}

export type DatasetContext = {
  options: DatasetOptions;
  random: SeededRandom;
  /** options.now in milliseconds. */
  now: number;
  out: CountingSink;
  /** `count` at the data set's scale, never under `min`. */
  scaled: (count: number, min?: number) => number;
  /** The rows the summary reports beside the per-table counts. */
  counts: {
    timeLogs: number;
    runningTimeLogs: number;
    records: number;
    revisions: number;
    patientDetailsRevisions: number;
    auditEvents: number;
  };
  /** How many records of each kind were checked against the contract's schema so far. */
  checkedRecords: Partial<Record<RecordKind, number>>;
};

export const author = (person: Person): Author => ({ sub: person.sub, username: person.username, name: person.name });
