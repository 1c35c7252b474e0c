/**
 * True when `error` (or an error it wraps: Drizzle wraps driver errors in `cause`) is PostgreSQL's
 * unique_violation (23505) on the named index. Both drivers (pg and PGlite) report `code` and `constraint`.
 */
export function isUniqueViolation(error: unknown, constraint: string): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current; depth++) {
    const candidate = current as { code?: unknown; constraint?: unknown; message?: unknown; cause?: unknown };
    if (candidate.code === "23505") {
      return candidate.constraint === constraint || String(candidate.message ?? "").includes(constraint);
    }
    current = candidate.cause;
  }
  return false;
}
