import { and, asc, count, desc, eq, ilike, isNotNull, isNull, ne, or, type SQL, sql } from "drizzle-orm";
import type { Db } from "../../db/client.js";
import { preparedOnce } from "../../db/prepared-once.js";
import { cases, clients } from "../../db/schema.js";

export type ClientRow = typeof clients.$inferSelect;
export type ClientValues = Omit<
  typeof clients.$inferInsert,
  "id" | "version" | "createdAt" | "updatedAt" | "archivedAt"
>;
/** Row locks taken inside a transaction: `update` serialises writers, `share` keeps the row from changing. */
export type RowLock = "update" | "share";

export async function findClientName(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: clients.name }).from(clients).where(eq(clients.id, id)).limit(1);
  return row?.name;
}

/**
 * Cases not yet closed (nor archived), counted per client; clients without open cases are absent from the map.
 * Read here rather than asked of the cases module, which builds on clients; `cases_open_client_idx` serves it.
 */
export async function countOpenCasesByClient(db: Db, clientIds: readonly string[]): Promise<Map<string, number>> {
  if (clientIds.length === 0) return new Map();
  // Built once: a page's ids are one array value, so every page shares the statement.
  const statement = preparedOnce(db, "open-cases-by-client", () =>
    db
      .select({ clientId: cases.clientId, total: count() })
      .from(cases)
      .where(
        and(
          sql`${cases.clientId} = any(${sql.placeholder("clientIds")}::uuid[])`,
          ne(cases.stage, "closed"),
          isNull(cases.archivedAt),
        ),
      )
      .groupBy(cases.clientId)
      .prepare(""),
  );
  const rows = await statement.execute({ clientIds: [...clientIds] });
  return new Map(rows.map((row) => [row.clientId, Number(row.total)]));
}

export async function findClient(db: Db, id: string, lock?: RowLock): Promise<ClientRow | undefined> {
  const query = () =>
    db
      .select()
      .from(clients)
      .where(eq(clients.id, sql.placeholder("id")))
      .limit(1);
  const [row] = lock
    ? await query().for(lock).execute({ id })
    : await preparedOnce(db, "client", () => query().prepare("")).execute({ id });
  return row;
}

export type ClientFilter = {
  search?: string | undefined;
  status: "active" | "inactive" | "archived" | "all";
  sort: "name" | "code" | "createdAt" | "updatedAt";
  order: "asc" | "desc";
  limit: number;
  offset: number;
};

/** `%`, `_` and `\` typed by a user are literal characters, not LIKE wildcards. */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
}

const sortColumns = {
  name: sql`lower(${clients.name})`,
  code: sql`lower(${clients.code})`,
  createdAt: clients.createdAt,
  updatedAt: clients.updatedAt,
} as const;

export async function findClientPage(db: Db, filter: ClientFilter): Promise<{ rows: ClientRow[]; total: number }> {
  const statements = clientPageStatements(db, filter.status, Boolean(filter.search), filter.sort, filter.order);
  const values = {
    status: filter.status,
    pattern: filter.search ? likePattern(filter.search) : "",
    limit: filter.limit,
    offset: filter.offset,
  };
  const [rows, [counted]] = await Promise.all([statements.page.execute(values), statements.total.execute(values)]);
  return { rows, total: Number(counted?.total ?? 0) };
}

/**
 * The page and its count, built once per filter shape (status, whether searched, sort, order): the values are
 * placeholders, so the SQL is not built again per request.
 */
function clientPageStatements(
  db: Db,
  status: ClientFilter["status"],
  searched: boolean,
  sort: ClientFilter["sort"],
  order: ClientFilter["order"],
) {
  return preparedOnce(db, `client-page:${status}:${searched}:${sort}:${order}`, () => {
    const conditions: (SQL | undefined)[] = [];
    if (status === "archived") conditions.push(isNotNull(clients.archivedAt));
    else {
      conditions.push(isNull(clients.archivedAt));
      if (status !== "all") conditions.push(eq(clients.status, sql.placeholder("status")));
    }
    if (searched) {
      const pattern = sql.placeholder("pattern");
      conditions.push(or(ilike(clients.name, pattern), ilike(clients.code, pattern)));
    }
    const where = and(...conditions);
    const direction = order === "desc" ? desc : asc;
    return {
      page: db
        .select()
        .from(clients)
        .where(where)
        .orderBy(direction(sortColumns[sort]), direction(clients.id))
        .limit(sql.placeholder("limit"))
        .offset(sql.placeholder("offset"))
        .prepare(""),
      total: db.select({ total: count() }).from(clients).where(where).prepare(""),
    };
  });
}

/** Active, non-archived clients by name: what pickers offer. */
export async function findActiveClientIds(db: Db): Promise<{ id: string; name: string; code: string }[]> {
  return db
    .select({ id: clients.id, name: clients.name, code: clients.code })
    .from(clients)
    .where(and(eq(clients.status, "active"), isNull(clients.archivedAt)))
    .orderBy(asc(sql`lower(${clients.name})`), asc(clients.id));
}

export async function insertClient(db: Db, values: ClientValues): Promise<ClientRow> {
  const [row] = await db.insert(clients).values(values).returning();
  return row as ClientRow;
}

/** Changes a client and moves it to its next version. */
export async function updateClientRow(
  db: Db,
  id: string,
  values: Partial<ClientValues> & { archivedAt?: Date | null },
): Promise<ClientRow | undefined> {
  const [row] = await db
    .update(clients)
    .set({ version: sql`${clients.version} + 1`, updatedAt: sql`now()`, ...values })
    .where(eq(clients.id, id))
    .returning();
  return row;
}
