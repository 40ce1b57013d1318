import { Database } from "bun:sqlite";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { sha256 } from "../util/hash.ts";
import { snapshotDatabase } from "./archive-database.ts";

const SECRET = "sk-live-snapshot-secret-8c1f";

describe("snapshotDatabase", () => {
  it("copies the committed state of a database another connection is still writing, redacted, as one file", async () => {
    const dir = await makeTempDir();
    const live = join(dir, "live.db");
    const writer = new Database(live);
    writer.run("PRAGMA journal_mode = WAL");
    writer.run("CREATE TABLE part (id TEXT, data TEXT)");
    writer.run("INSERT INTO part VALUES ('p1', ?)", [`key ${SECRET} seen`]);
    writer.run("BEGIN");
    writer.run("INSERT INTO part VALUES ('p2', 'not committed yet')");

    const target = join(dir, "checkpoint", "opencode.db");
    const snapshot = await snapshotDatabase({ live, target, secrets: [SECRET] });
    writer.run("COMMIT");

    expect(snapshot.sha256).toBe(sha256(readFileSync(target)));
    expect(existsSync(`${target}-wal`)).toBe(false);
    const copy = new Database(target, { readonly: true });
    const rows = copy.query<{ id: string; data: string }, []>("SELECT id, data FROM part ORDER BY id").all();
    copy.close();
    expect(rows.map((row) => row.id)).toEqual(["p1"]);
    expect(rows[0]!.data).not.toContain(SECRET);
    // The live database keeps its own (unredacted) data and its writer.
    expect(writer.query<{ n: number }, []>("SELECT count(*) AS n FROM part").get()!.n).toBe(2);
    writer.close();
  });

  it("says where OpenCode should have written when there is no live database", async () => {
    const dir = await makeTempDir();
    await expect(
      snapshotDatabase({ live: join(dir, "missing.db"), target: join(dir, "t.db"), secrets: [] }),
    ).rejects.toThrow(/No native OpenCode database at .*missing\.db/);
  });
});
