import { Database } from "bun:sqlite";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { MIN_SECRET_LENGTH, REDACTED, redactBytes, redactDatabase, redactSecrets, secretForms } from "./redact.ts";

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

describe("encoded secrets", () => {
  const reverse = (text: string) => [...text].reverse().join("");

  /**
   * `secret` inside a longer byte stream that is then encoded, at byte offset `before.length`: only the characters
   * that share bits with a neighbouring byte may remain (at most one at each end, besides the neighbours' own).
   */
  function expectBase64Redacted(secret: string, before: string, encoding: "base64" | "base64url"): void {
    const stream = Buffer.from(`${before}${secret}\n`);
    const encoded = stream.toString(encoding);
    const redacted = redactSecrets(`data: ${encoded} end`, [secret]);
    const start = Buffer.byteLength(before);
    const kept = redacted.slice("data: ".length, -" end".length).split(REDACTED);
    expect(kept, `offset ${start % 3}`).toHaveLength(2);
    expect(kept[0]!.length, `offset ${start % 3}`).toBeLessThanOrEqual(Math.ceil((8 * start) / 6));
    expect(kept[1]!.length, `offset ${start % 3}`).toBeLessThanOrEqual(
      encoded.length - Math.floor((8 * (start + Buffer.byteLength(secret))) / 6),
    );
  }

  test("base64 at each of the three byte offsets, as `echo $KEY | base64` and inside a longer file", () => {
    for (const before of ["", "K", "KE", "KEY", "API_KEY=", "ANTHROPIC_API_KEY="])
      expectBase64Redacted(SECRET, before, "base64");
  });

  test("base64url at each offset, for a secret whose base64 has + and /", () => {
    const secret = "sk>>>???~~~0123";
    expect(Buffer.from(secret).toString("base64")).toMatch(/[+/]/);
    for (const before of ["", "a", "ab"]) {
      expectBase64Redacted(secret, before, "base64url");
      expectBase64Redacted(secret, before, "base64");
    }
  });

  test("hex in lower and upper case", () => {
    const hex = Buffer.from(`key=${SECRET}\n`).toString("hex");
    expect(redactSecrets(hex, [SECRET])).toBe(`6b65793d${REDACTED}0a`);
    expect(redactSecrets(hex.toUpperCase(), [SECRET])).toBe(`6B65793D${REDACTED}0A`);
  });

  test("URL-encoded: encodeURIComponent, form encoding, and every byte percent-encoded in either case", () => {
    const secret = "p@ss/w0rd+key=1 2&x";
    const everyByte = [...Buffer.from(secret)].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join("");
    for (const form of [
      encodeURIComponent(secret),
      new URLSearchParams({ k: secret }).toString().slice(2),
      everyByte,
      everyByte.toUpperCase(),
    ]) {
      expect(redactSecrets(`GET /?token=${form}&page=2`, [secret]), form).toBe(`GET /?token=${REDACTED}&page=2`);
    }
  });

  test("reversed, also inside JSON", () => {
    expect(redactSecrets(`rev: ${reverse(SECRET)}`, [SECRET])).toBe(`rev: ${REDACTED}`);
    const odd = 'pa"ss\\word-123456';
    const line = JSON.stringify({ output: `x ${reverse(odd)} y` });
    expect(JSON.parse(redactSecrets(line, [odd]))).toEqual({ output: `x ${REDACTED} y` });
  });

  test("in raw bytes too (files the agent wrote)", () => {
    const data = new Uint8Array([
      0,
      255,
      ...Buffer.from(`${Buffer.from(SECRET).toString("base64")} ${reverse(SECRET)}`),
      0,
    ]);
    expect(Buffer.from(redactBytes(data, [SECRET])).toString("latin1")).toBe(
      `\u0000\u00ff${REDACTED} ${REDACTED}\u0000`,
    );
  });

  test("no form of a secret is shorter than the shortest secret redacted, and shorter secrets stay ignored", () => {
    for (const secret of ["abcdefgh", "été-ünï", "\u{1F511}\u{1F511}\u{1F511}\u{1F511}"]) {
      for (const form of secretForms([secret]))
        expect(form.length, `${form} of ${secret}`).toBeGreaterThanOrEqual(MIN_SECRET_LENGTH);
    }
    const text = `${Buffer.from("control").toString("base64")} ${Buffer.from("control").toString("hex")} lortnoc`;
    expect(redactSecrets(text, ["control"])).toBe(text);
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
    db.run('CREATE TABLE "odd name" ("odd col" TEXT)');
    db.run("INSERT INTO part VALUES (?, ?, ?, 1)", [
      "p1",
      JSON.stringify({ output: `ANTHROPIC_API_KEY=${SECRET}\nPATH=/bin` }),
      new TextEncoder().encode(`blob ${SECRET} blob`),
    ]);
    db.run("INSERT INTO part VALUES ('p2', 'clean text', NULL, 2)");
    db.run("INSERT INTO credential VALUES ('c', ?)", [SECRET]);
    db.run("INSERT INTO account VALUES ('a', 'some-token-value')");
    db.run('INSERT INTO "odd name" VALUES (?)', [`x${SECRET}x`]);
    db.run("CREATE TABLE keyed (k TEXT PRIMARY KEY, v TEXT) WITHOUT ROWID");
    db.run("INSERT INTO keyed VALUES ('a', ?), ('b', 'same prefix only')", [
      `hex ${Buffer.from(SECRET).toString("hex")}`,
    ]);
    db.run("INSERT INTO part VALUES ('p3', ?, ?, 3)", [
      `b64 ${Buffer.from(`K=${SECRET}`).toString("base64")}`,
      Buffer.from([...SECRET].reverse().join("")),
    ]);
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
    // Encoded forms too, in a table without rowids; a text cell stays text.
    expect(db.query("SELECT k, v, typeof(v) AS type FROM keyed ORDER BY k").all()).toEqual([
      { k: "a", v: `hex ${REDACTED}`, type: "text" },
      { k: "b", v: "same prefix only", type: "text" },
    ]);
    const p3 = db.query<{ data: string; raw: Uint8Array }, []>("SELECT data, raw FROM part WHERE id = 'p3'").get()!;
    expect(p3.data).toMatch(/^b64 \w{0,3}\[REDACTED\]\w?=*$/);
    expect(new TextDecoder().decode(p3.raw)).toBe(REDACTED);
    db.close();

    // The bytes on disk (main file; the WAL was checkpointed) no longer hold the secret anywhere.
    const bytes = await readFile(path);
    expect(bytes.includes(Buffer.from(SECRET))).toBe(false);
  });
});
