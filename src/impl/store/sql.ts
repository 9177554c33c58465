/**
 * One SQL text, two executors: hot-path queries are written once with `?` placeholders (SQL that
 * SQLite and Postgres both accept) and run on better-sqlite3 as cached prepared statements, called
 * synchronously on the pool's single connection, or through `knex.raw` on Postgres. Knex's query
 * builder, pool round trip and per-query prepare cost more than the query itself on SQLite
 * (docs/SETUP-NOTES finding 4: raw prepared writes are ~25× faster), which is why this exists.
 *
 * SQL given here uses `?` only as placeholders (never inside a literal).
 *
 * Visibility stays knex's: outside a transaction the fast path is taken only while no transaction
 * is open on the connection (otherwise the query waits for the pool, as knex would, and never sees
 * uncommitted rows); inside one (`trx`) it runs on the transaction's connection.
 * @module
 */
import type { Knex } from 'knex';

/** A row as the drivers return it (BLOB/bytea as Buffer, integers as number). */
export type Row = Record<string, unknown>;

/** The parts of a better-sqlite3 connection used here. */
interface SqliteConnection {
  readonly open: boolean;
  readonly inTransaction: boolean;
  prepare(sql: string): SqliteStatement;
}
interface SqliteStatement {
  all(...params: unknown[]): Row[];
  get(...params: unknown[]): Row | undefined;
  run(...params: unknown[]): unknown;
}

const connections = new WeakMap<object, SqliteConnection>();
const statements = new WeakMap<SqliteConnection, Map<string, SqliteStatement>>();
const MAX_STATEMENTS = 500;
const SQLITE_ROWS = 32;

/** True when `db` runs on better-sqlite3. */
export function isSqlite(db: Knex | Knex.Transaction): boolean {
  return db.client.config?.client === 'better-sqlite3';
}

/** The better-sqlite3 connection to run on now, or undefined (Postgres, or another transaction holds it). */
async function sqliteConnection(db: Knex | Knex.Transaction): Promise<SqliteConnection | undefined> {
  if (!isSqlite(db)) return undefined;
  const inTrx = (db as Knex.Transaction).isTransaction === true;
  let conn = connections.get(db);
  if (conn === undefined || !conn.open) {
    // Pool of one (database.ts): the connection stays the same until it is closed. A transaction's
    // client hands out the transaction's connection.
    conn = (await db.client.acquireConnection()) as SqliteConnection;
    if (!inTrx) await db.client.releaseConnection(conn);
    connections.set(db, conn);
  }
  if (!inTrx && conn.inTransaction) return undefined;
  return conn;
}

/**
 * The connection's statement for `sql`. openDatabase's connections also reuse statements
 * (database.ts `cachePreparedStatements`, bounding what knex's per-query prepares cost); this map
 * stays for the hot path: one lookup, the placeholder rewrite done once, and the same behaviour on
 * connections opened without openDatabase (benches, tests).
 */
function prepared(conn: SqliteConnection, sql: string): SqliteStatement {
  let cache = statements.get(conn);
  if (cache === undefined) statements.set(conn, (cache = new Map()));
  let st = cache.get(sql);
  if (st === undefined) {
    if (cache.size >= MAX_STATEMENTS) cache.clear();
    // better-sqlite3's SQLite is built with STAT4, which re-plans a statement whenever a parameter
    // the planner looked at is rebound (~10 µs, 3× the query). A parameter under unary plus (a
    // no-op on every value) is not looked at, and the plan (an index seek) stays the same.
    cache.set(sql, (st = conn.prepare(sql.replaceAll('?', '+?'))));
  }
  return st;
}

/** Runs a SELECT and returns its rows. */
export async function selectRows(db: Knex | Knex.Transaction, sql: string, params: readonly unknown[]): Promise<Row[]> {
  const conn = await sqliteConnection(db);
  if (conn !== undefined) return prepared(conn, sql).all(...params);
  const res = await db.raw(sql, params as Knex.RawBinding[]);
  return isSqlite(db) ? (res as Row[]) : (res as { rows: Row[] }).rows;
}

/**
 * Runs the same single-row SELECT once per parameter list and returns each one's row (undefined
 * when it found none), in order. SQLite: one prepared statement executed per list. Postgres: the
 * lists in chunks, each chunk one `UNION ALL` statement of the wrapped query, so the round trips
 * do not grow with the number of lists.
 */
export async function selectEach(
  db: Knex | Knex.Transaction,
  sql: string,
  paramLists: readonly (readonly unknown[])[],
): Promise<(Row | undefined)[]> {
  const out: (Row | undefined)[] = new Array(paramLists.length).fill(undefined);
  if (paramLists.length === 0) return out;
  const conn = await sqliteConnection(db);
  if (conn !== undefined) {
    const st = prepared(conn, sql);
    paramLists.forEach((p, i) => {
      out[i] = st.get(...p);
    });
    return out;
  }
  const CHUNK = 200; // SQLite allows 500 terms in a compound SELECT; Postgres has no such bound
  for (let start = 0; start < paramLists.length; start += CHUNK) {
    const lists = paramLists.slice(start, start + CHUNK);
    const union = lists.map((_, i) => `select ${start + i} as q__, t${i}.* from (${sql}) as t${i}`).join(' union all ');
    for (const r of await selectRows(db, union, lists.flat())) {
      const { q__, ...row } = r;
      out[Number(q__)] = row;
    }
  }
  return out;
}

/** Inserts rows into `table` (columns in order); call with the block's transaction. */
export async function insertRows(
  trx: Knex.Transaction,
  table: string,
  columns: readonly string[],
  rows: readonly (readonly unknown[])[],
  budget?: { turn(): Promise<void> },
): Promise<void> {
  if (rows.length === 0) return;
  const conn = await sqliteConnection(trx);
  if (conn !== undefined) {
    // Multi-row statements of SQLITE_ROWS rows, then single rows: fewer calls into the driver.
    // With a budget the event loop turns between statements once it has waited long enough;
    // other queries wait for the transaction's connection meanwhile (sqliteConnection), they never see its rows.
    const tuple = `(${columns.map(() => '?').join(', ')})`;
    const head = `insert into ${table} (${columns.join(', ')}) values `;
    const many = prepared(conn, head + new Array(SQLITE_ROWS).fill(tuple).join(', '));
    let i = 0;
    for (; i + SQLITE_ROWS <= rows.length; i += SQLITE_ROWS) {
      many.run(...rows.slice(i, i + SQLITE_ROWS).flat());
      await budget?.turn();
    }
    const one = prepared(conn, head + tuple);
    for (; i < rows.length; i++) one.run(...rows[i]!);
    return;
  }
  const chunk = Math.max(1, Math.floor(8000 / columns.length));
  for (let i = 0; i < rows.length; i += chunk) {
    await trx(table).insert(rows.slice(i, i + chunk).map((r) => Object.fromEntries(columns.map((c, k) => [c, r[k]]))));
  }
}
