import path from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What every bench script shares: where the data lives, who signs in, how long each run lasts. Everything can be
 * changed through the environment; the defaults are what `npm run bench` uses.
 *
 * BENCH_ONLY=<ids, comma-separated> (the `id`s of endpoints.ts, e.g. `BENCH_ONLY=statement,billing-overview`)
 * measures only those endpoints, on every server run (full data, baseline, tenth, PGlite), for quick iterations on
 * a few reads; the targets of the endpoints left out are simply absent from the report and the JSON. An unknown id
 * stops the bench before anything runs.
 */

export const repoRoot = fileURLToPath(new URL("..", import.meta.url));
export const resultsDir = path.join(repoRoot, "bench-results");

/** The PostgreSQL server the bench creates its own databases on (trust or password in the URL). */
export const postgresAdminUrl = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";

function databaseUrl(name: string): string {
  const url = new URL(postgresAdminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The full data set (100,000 cases, 1,000,000 time logs). */
export const fullDatabase = process.env.BENCH_DATABASE ?? "vigil_bench";
export const fullDatabaseUrl = databaseUrl(fullDatabase);
/** The tenth, on PostgreSQL too: the PGlite/PostgreSQL ratio compares the two engines on the same rows. */
export const smallDatabase = `${fullDatabase}_tenth`;
export const smallDatabaseUrl = databaseUrl(smallDatabase);
/** The tenth in an embedded database: the server's DATA_DIR (PGlite lives in DATA_DIR/pglite). */
export const pgliteDataDir = process.env.BENCH_PGLITE_DIR ?? path.join(resultsDir, "pglite-data");
/**
 * BENCH_PGLITE=0 leaves PGlite out (no embedded tenth generated or measured): for the one-off run at
 * BENCH_SCALE=10, whose tenth (100,000 cases) would have to be held in memory whole to load into PGlite, and whose
 * question is the growth on PostgreSQL.
 */
export const pgliteMeasured = process.env.BENCH_PGLITE !== "0";

/** The bench's own administrator, inserted by generate-data.ts with this password's argon2 hash. */
export const benchUser = {
  username: "bench-admin",
  password: "bench-admin-password-2026",
  name: "Bench Administrator",
};

/**
 * The full data set is scale 1, the embedded one a tenth. BENCH_SCALE multiplies both (e.g. 0.01 for a quick
 * trial of the whole bench in a minute); figures are comparable only at the default.
 */
const scaleFactor = Number(process.env.BENCH_SCALE ?? 1);
export const scaleFull = 1 * scaleFactor;
export const scaleTenth = 0.1 * scaleFactor;

const rounds = Math.max(1, Math.floor(Number(process.env.BENCH_ROUNDS ?? 5)));
const durationSeconds = Number(process.env.BENCH_DURATION ?? 10);
const heavyRequests = Number(process.env.BENCH_HEAVY_REQUESTS ?? 8);

export const runSettings = {
  /**
   * Rounds of the interleaved runs (interleave.ts): every server takes its turn at an endpoint, in an order that
   * changes each round (rounds.ts), and a target is judged on the median of its per-round figures. 1 is the single run of
   * before (the one-off run at 1,000,000 cases may use it).
   */
  rounds,
  /** Seconds measured per endpoint and server in all, after the warm-up: split evenly over the rounds. */
  durationSeconds,
  roundSeconds: durationSeconds / rounds,
  /** The first round's warm-up per endpoint and server… */
  warmupSeconds: Number(process.env.BENCH_WARMUP ?? 2),
  /**
   * …and every later round's (the code is hot by then; this only refills the connections and the caches). The
   * fixed-rate runs send this many seconds at their rate before they measure, in every round.
   */
  roundWarmupSeconds: Number(process.env.BENCH_ROUND_WARMUP ?? 0.5),
  /** Concurrent connections of the throughput runs (no pipelining). */
  connections: Number(process.env.BENCH_CONNECTIONS ?? 10),
  /**
   * The heavy reads (statement, report, billing overview) can take seconds each on the full data: they are measured
   * on one connection with a fixed number of requests (their own latency), not flat out for a fixed time.
   */
  heavyRequests,
  /** …of which each round sends this many (at least 3, so a round's p50 is a middle request, not an edge). */
  heavyRequestsPerRound: rounds === 1 ? heavyRequests : Math.max(3, Math.ceil(heavyRequests / rounds)),
  /** Requests per second of the fixed-rate run (PostgreSQL, full data; an endpoint may name its own). */
  fixedRate: Number(process.env.BENCH_RATE ?? 200),
  /** The pg pool size the server uses (db/client.ts default); the baseline uses the same. */
  poolSize: 10,
  /** A slow report must not be cut off: its latency is what is measured. */
  requestTimeoutSeconds: 60,
};

/** BENCH_ONLY's endpoint ids (see the header), or undefined: every endpoint. */
export const onlyEndpointIds: string[] | undefined = process.env.BENCH_ONLY?.trim()
  ? process.env.BENCH_ONLY.split(",")
      .map((id) => id.trim())
      .filter((id) => id.length > 0)
  : undefined;

/**
 * The read targets the bench checks (docs/operations.md, "Benchmark"; issue 20, "Speed at scale, second round").
 * Endpoints with a target of their own name it in endpoints.ts (`throughputShare`, `fixedRate`, `p50TargetMs`).
 */
export const targets = {
  /** List and detail reads: the real server's throughput against the bare baseline's. */
  throughputShareOfBaseline: 0.7,
  /** The watch board keeps issue 17's own share (it is also measured at its own fixed rate). */
  boardThroughputShareOfBaseline: 0.5,
  /** `GET /api/chrome`. */
  chromeThroughputShareOfBaseline: 0.5,
  fixedRateP99Ms: 25,
  /** p50 of each heavy read on the full data set, one request at a time. */
  heavyReadP50Ms: { statement: 50, report: 50, billingOverview: 100, aging: 100, statementOfAccount: 100 },
  /** p50 on the full data ÷ p50 on the tenth (PostgreSQL both), list, detail and board reads. */
  growthRatio: 1.5,
  /** Below this a p50 says nothing (autocannon's resolution): the growth compares the means instead. */
  growthMinP50Ms: 1,
  pgliteRatio: 3,
  rssMb: 300,
  shellInitialJsGzipKb: 250,
};
