// A dead runner's scratch folders in the temp dir: each holds an isolated HOME with a copy of a provider's
// auth.json entry, so recovery removes them rather than leaving credentials on disk (issue 14).
import { readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { candidateScratchPrefix } from "../candidate/index.ts";
import { judgeScratchPrefix } from "../judge/index.ts";

/** Removes the scratch of unfinished eval runs (candidate and earlyStop checks) and judge runs; returns what it removed. */
export async function removeScratchOf(work: { evalRuns: readonly string[]; judgeRuns: readonly string[] }, root = tmpdir()): Promise<string[]> {
  const prefixes = [...work.evalRuns.flatMap((id) => [candidateScratchPrefix(id), judgeScratchPrefix(id)]), ...work.judgeRuns.map(judgeScratchPrefix)];
  if (prefixes.length === 0) return [];
  const names = (await readdir(root)).filter((name) => prefixes.some((prefix) => name.startsWith(prefix)));
  await Promise.all(names.map((name) => rm(join(root, name), { recursive: true, force: true })));
  return names.map((name) => join(root, name));
}
