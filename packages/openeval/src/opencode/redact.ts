// Removes secret values, and their common encodings, from text and from a native OpenCode database (every text
// and blob cell of every table), and empties the tables where OpenCode keeps credentials.

import { Database } from "bun:sqlite";
import { encodedForms } from "./secret-forms.ts";

export const REDACTED = "[REDACTED]";

/** Shorter values are ignored: replacing them would mangle ordinary text (e.g. the control provider's "control"). */
export const MIN_SECRET_LENGTH = 8;

/** Tables that hold credentials or account tokens; emptied outright rather than scanned. */
const CREDENTIAL_TABLES = ["credential", "account", "account_state", "control_account"];

/**
 * Every form a secret can take in our outputs (as is, JSON-escaped, and its common encodings: see secret-forms.ts).
 * Longest first so one secret containing another is not split.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of encodedForms(secret)) forms.add(form);
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** One compiled pass over text or bytes for a list of secrets. */
export interface Redactor {
  text(value: string): string;
  /** Binary-safe: a byte-for-byte replacement; returns `data` itself when nothing matched. */
  bytes(data: Uint8Array): Uint8Array;
}

/**
 * All forms of all secrets as one alternation: one scan per line instead of one per form (a few secrets have
 * dozens of forms, and every evidence line passes through here).
 * @example createRedactor(["sk-ant-123456789"]).text("key=sk-ant-123456789") // → "key=[REDACTED]"
 */
export function createRedactor(secrets: readonly string[]): Redactor {
  const forms = secretForms(secrets);
  if (forms.length === 0) return { text: (value) => value, bytes: (data) => data };
  const textPattern = alternation(forms);
  // latin1 maps each byte to one char and back, so replacing in that view never corrupts other bytes.
  const bytePattern = alternation(forms.map((form) => Buffer.from(form, "utf8").toString("latin1")));
  return {
    text: (value) => value.replace(textPattern, REDACTED),
    bytes(data) {
      const view = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("latin1");
      const redacted = view.replace(bytePattern, REDACTED);
      return redacted === view ? data : new Uint8Array(Buffer.from(redacted, "latin1"));
    },
  };
}

function alternation(forms: readonly string[]): RegExp {
  return new RegExp(forms.map((form) => form.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|"), "g");
}

/** Callers pass the same list for every line of a session: compile it once. */
const redactors = new Map<string, Redactor>();
const CACHED_REDACTORS = 16;

function redactorFor(secrets: readonly string[]): Redactor {
  const key = JSON.stringify(secrets);
  let redactor = redactors.get(key);
  if (!redactor) {
    redactor = createRedactor(secrets);
    if (redactors.size >= CACHED_REDACTORS) redactors.delete(redactors.keys().next().value!);
    redactors.set(key, redactor);
  }
  return redactor;
}

/**
 * @example redactSecrets("key=sk-ant-123456789", ["sk-ant-123456789"]) // → "key=[REDACTED]"
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  return redactorFor(secrets).text(text);
}

/** The same for raw bytes (files the agent wrote): binary-safe, a byte-for-byte replacement of each secret form. */
export function redactBytes(data: Uint8Array, secrets: readonly string[]): Uint8Array {
  return redactorFor(secrets).bytes(data);
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
    const redactor = createRedactor(secrets);
    db.transaction(() => {
      for (const table of listTables(db)) {
        if (CREDENTIAL_TABLES.includes(table)) {
          db.run(`DELETE FROM ${quoteIdentifier(table)}`);
          continue;
        }
        for (const column of listColumns(db, table)) redactColumn(db, table, column, redactor);
      }
    })();
    db.run("PRAGMA wal_checkpoint(TRUNCATE)");
  } finally {
    db.close();
  }
}

/**
 * Reads each text and blob cell as its bytes and redacts it in one pass (one SQL scan per form was seconds per
 * session once encodings were added). Rows are found again by their exact bytes, so tables without a rowid work
 * too, and a text cell stays text.
 */
function redactColumn(db: Database, table: string, column: string, redactor: Redactor): void {
  const t = quoteIdentifier(table);
  const c = quoteIdentifier(column);
  const changed: [before: Uint8Array, after: Uint8Array][] = [];
  const cells = db.query<{ value: Uint8Array }, []>(
    `SELECT CAST(${c} AS BLOB) AS value FROM ${t} WHERE typeof(${c}) IN ('text', 'blob')`,
  );
  for (const { value } of cells.iterate()) {
    const redacted = redactor.bytes(value);
    if (redacted !== value) changed.push([value, redacted]);
  }
  const update = db.query(
    `UPDATE ${t} SET ${c} = iif(typeof(${c}) = 'text', CAST(?1 AS TEXT), ?1) WHERE typeof(${c}) IN ('text', 'blob') AND CAST(${c} AS BLOB) = ?2`,
  );
  for (const [before, after] of changed) update.run(after, before);
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
