// The reference for the harness's session exports: `opencode export <id>` run by the pinned binary itself on a
// copy of a database (a copy, because opening the archive could change its sha256), in a fresh isolated
// environment. Tests compare the harness's export files with this byte for byte.
import { Database } from "bun:sqlite";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { prepareIsolation, resolveOpenCodeBinary } from "../../packages/openeval/src/opencode/index.ts";

/** `opencode export` of every session in `database`, by session id. */
export async function exportWithOpenCode(database: string): Promise<Map<string, string>> {
  const scratch = await mkdtemp(join(tmpdir(), "openeval-native-export-"));
  try {
    const { env, paths } = await prepareIsolation(scratch);
    await copyFile(database, paths.database);
    const db = new Database(paths.database, { readonly: true });
    const ids = db
      .query<{ id: string }, []>("SELECT id FROM session")
      .all()
      .map((row) => row.id);
    db.close();
    const exports = new Map<string, string>();
    for (const id of ids) {
      const file = join(scratch, `${id}.json`);
      // stdout to a file: OpenCode 1.18 exits before a pipe takes more than its first 64 KiB.
      const child = Bun.spawn([resolveOpenCodeBinary(), "export", id], {
        cwd: scratch,
        env: { ...env, OPENCODE_DB: paths.database },
        stdout: Bun.file(file),
        stderr: "pipe",
      });
      const stderr = await new Response(child.stderr).text();
      if ((await child.exited) !== 0) throw new Error(`opencode export ${id} failed: ${stderr.slice(-1000)}`);
      exports.set(id, await readFile(file, "utf8"));
    }
    return exports;
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
