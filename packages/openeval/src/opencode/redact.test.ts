import { Database } from "bun:sqlite";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { REDACTED, redactBytes, redactDatabase, redactSecrets } from "./redact.ts";

const SECRET = "sk-ant-planted-0123456789abcdef";

describe("redactBytes", () => {
  test("replaces secrets inside binary data without touching other bytes", () => {
    const data = new Uint8Array([0, 255, ...new TextEncoder().encode(`k=${SECRET}`), 254, 0]);
    const redacted = redactBytes(data, [SECRET]);
    expect([...redacted.slice(0, 2)]).toEqual([0, 255]);
    expect([...redacted.slice(-2)]).toEqual([254, 0]);
    expect(new TextDecoder().decode(redacted.slice(2, -2))).toBe(`k=${REDACTED}`);
    expect(redactBytes(data, [])).toBe(data);
  });
});

describe("redactSecrets", () => {
  test("replaces every occurrence", () => {
    expect(redactSecrets(`a ${SECRET} b ${SECRET}`, [SECRET])).toBe(`a ${REDACTED} b ${REDACTED}`);
  });

  test("ignores secrets shorter than 8 characters", () => {
    expect(redactSecrets("apiKey: control", ["control"])).toBe("apiKey: control");
  });

  test("catches the JSON-escaped form too, and keeps the JSON valid", () => {
    const odd = 'pa"ss\\word-123456';
    const line = JSON.stringify({ output: `key=${odd}` });
    const redacted = redactSecrets(line, [odd]);
    expect(JSON.parse(redacted)).toEqual({ output: `key=${REDACTED}` });
  });

  test("a secret that contains another is replaced whole", () => {
    expect(redactSecrets("x sk-1234567890-long y", ["sk-1234567890", "sk-1234567890-long"])).toBe(`x ${REDACTED} y`);
  });
});

describe("redactDatabase", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "openeval-redact-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  function seed(path: string): void {
    const db = new Database(path);
    db.run("PRAGMA journal_mode = WAL");
    db.run("CREATE TABLE part (id TEXT PRIMARY KEY, data TEXT, raw BLOB, n INTEGER)");
    db.run("CREATE TABLE credential (id TEXT, value TEXT)");
    db.run("CREATE TABLE account (id TEXT, access_token TEXT)");
    db.run("CREATE TABLE \"odd name\" (\"odd col\" TEXT)");
    db.run("INSERT INTO part VALUES (?, ?, ?, 1)", [
      "p1",
      JSON.stringify({ output: `ANTHROPIC_API_KEY=${SECRET}\nPATH=/bin` }),
      new TextEncoder().encode(`blob ${SECRET} blob`),
    ]);
    db.run("INSERT INTO part VALUES ('p2', 'clean text', NULL, 2)");
    db.run("INSERT INTO credential VALUES ('c', ?)", [SECRET]);
    db.run("INSERT INTO account VALUES ('a', 'some-token-value')");
    db.run("INSERT INTO \"odd name\" VALUES (?)", [`x${SECRET}x`]);
    db.close();
  }

  test("removes the secret from every text and blob cell and empties credential tables", async () => {
    const path = join(dir, "opencode.db");
    seed(path);
    redactDatabase(path, [SECRET]);

    const db = new Database(path, { readonly: true });
    const part = db.query<{ data: string; raw: Uint8Array }, []>("SELECT data, raw FROM part WHERE id = 'p1'").get()!;
    expect(JSON.parse(part.data).output).toBe(`ANTHROPIC_API_KEY=${REDACTED}\nPATH=/bin`);
    expect(new TextDecoder().decode(part.raw)).toBe(`blob ${REDACTED} blob`);
    expect(part.raw).toBeInstanceOf(Uint8Array);
    expect(db.query("SELECT data FROM part WHERE id = 'p2'").get()).toEqual({ data: "clean text" });
    expect(db.query("SELECT count(*) AS n FROM credential").get()).toEqual({ n: 0 });
    expect(db.query("SELECT count(*) AS n FROM account").get()).toEqual({ n: 0 });
    expect(db.query('SELECT "odd col" AS v FROM "odd name"').get()).toEqual({ v: `x${REDACTED}x` });
    db.close();

    // The bytes on disk (main file; the WAL was checkpointed) no longer hold the secret anywhere.
    const bytes = await readFile(path);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
  });
});
