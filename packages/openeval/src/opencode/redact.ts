// Removes secret values from text and from a native OpenCode database (every text and blob cell of every table),
// and empties the tables where OpenCode keeps credentials.

import { Database } from "bun:sqlite";

export const REDACTED = "[REDACTED]";

/** Shorter values are ignored: replacing them would mangle ordinary text (e.g. the control provider's "control"). */
export const MIN_SECRET_LENGTH = 8;

/** Tables that hold credentials or account tokens; emptied outright rather than scanned. */
const CREDENTIAL_TABLES = ["credential", "account", "account_state", "control_account"];

/**
 * The forms a secret can take in our outputs: as is, and JSON-escaped (event lines and exports are JSON, so a
 * secret containing `"` or `\` appears escaped there). Longest first so one secret containing another is not split.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/**
 * @example redactSecrets("key=sk-ant-123456789", ["sk-ant-123456789"]) // → "key=[REDACTED]"
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const form of secretForms(secrets)) result = result.replaceAll(form, REDACTED);
  return result;
}

/** The same for raw bytes (files the agent wrote): binary-safe, a byte-for-byte replacement of each secret form. */
export function redactBytes(data: Uint8Array, secrets: readonly string[]): Uint8Array {
  const forms = secretForms(secrets);
  if (forms.length === 0) return data;
  // latin1 maps each byte to one char and back, so replacing in that view never corrupts other bytes.
  let text = Buffer.from(data).toString("latin1");
  const before = text;
  for (const form of forms) text = text.replaceAll(Buffer.from(form, "utf8").toString("latin1"), REDACTED);
  return text === before ? data : new Uint8Array(Buffer.from(text, "latin1"));
}

/**
 * Rewrites the database in place: every secret in every text (or blob) cell becomes `[REDACTED]` (the agent may have
 * run `env`, so a key can sit in any tool output, event or part), and credential tables are emptied.
 * `secure_delete` zeroes the freed bytes; callers that publish the file should still VACUUM (archiveDatabase does).
 */
export function redactDatabase(dbPath: string, secrets: readonly string[]): void {
  const db = new Database(dbPath);
  try {
    db.run("PRAGMA secure_delete = ON");
    const forms = secretForms(secrets);
    db.transaction(() => {
      for (const table of listTables(db)) {
        if (CREDENTIAL_TABLES.includes(table)) {
          db.run(`DELETE FROM ${quoteIdentifier(table)}`);
          continue;
        }
        for (const column of listColumns(db, table)) redactColumn(db, table, column, forms);
      }
    })();
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

function redactColumn(db: Database, table: string, column: string, forms: string[]): void {
  const t = quoteIdentifier(table);
  const c = quoteIdentifier(column);
  for (const form of forms) {
    db.run(
      `UPDATE ${t} SET ${c} = replace(${c}, ?1, ?2) WHERE typeof(${c}) = 'text' AND instr(${c}, ?1) > 0`,
      [form, REDACTED],
    );
    // Blobs compare bytewise: cast to text for replace(), back to blob so the column keeps its type.
    db.run(
      `UPDATE ${t} SET ${c} = CAST(replace(CAST(${c} AS TEXT), ?1, ?2) AS BLOB)
       WHERE typeof(${c}) = 'blob' AND instr(${c}, CAST(?1 AS BLOB)) > 0`,
      [form, REDACTED],
    );
  }
}

/** Ordinary tables only: virtual tables (FTS) cannot be updated cell by cell and sqlite_* are internal. */
function listTables(db: Database): string[] {
  const rows = db
    .query<{ name: string }, []>(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND sql NOT LIKE 'CREATE VIRTUAL%'",
    )
    .all();
  return rows.map((row) => row.name);
}

function listColumns(db: Database, table: string): string[] {
  return db
    .query<{ name: string }, []>(`SELECT name FROM pragma_table_info(${quoteLiteral(table)})`)
    .all()
    .map((row) => row.name);
}

function quoteIdentifier(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

function quoteLiteral(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}
