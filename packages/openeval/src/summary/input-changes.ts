// Did anything a run depends on change while it ran? The benchmark folder (everything but results/ and installed
// packages) and the harness's own source are hashed before any candidate starts and again when the work is done;
// a difference is reported by file. Grading never used the live files (freeze-inputs.ts): this says
// that someone — possibly a candidate in the unsandboxed process mode — changed them.
import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import type { IntegrityProblem, ResultsStore } from "../records/index.ts";
import { sha256 } from "../util/hash.ts";
import { walkTree, type TreeEntry } from "../util/tree.ts";

/** packages/openeval/src and the control model package (wherever it is installed): the code that records and grades. */
const HARNESS_ROOTS = [
  fileURLToPath(new URL("..", import.meta.url)),
  dirname(fileURLToPath(import.meta.resolve("@openeval/control-model"))),
];
/** What in a benchmark folder is not its source: recorded results and installed packages. */
export const NOT_BENCHMARK_SOURCE: ReadonlySet<string> = new Set(["results", "node_modules", ".git"]);

export interface InputChange {
  /** `frozen`: the run store's own frozen copy (`inputs/evals/<id>/`), put back before it was used. */
  scope: "benchmark" | "harness" | "frozen";
  /** Relative to the benchmark folder, the harness package (packages/openeval), or the frozen eval folder. */
  path: string;
  change: "modified" | "added" | "removed";
}

export type SourceHashes = Map<string, string>;

/** Hashes of every benchmark and harness file, keyed `<scope>:<path>`. */
export async function hashSources(benchmarkDirectory: string): Promise<SourceHashes> {
  const hashes: SourceHashes = new Map();
  const add = async (scope: InputChange["scope"], root: string, base: string) => {
    for (const entry of walkTreeIfPresent(root)) {
      const path = relative(base, entry.absolute).split("\\").join("/");
      hashes.set(
        `${scope}:${path}`,
        entry.kind === "file" ? sha256(await readFile(entry.absolute)) : `symlink:${entry.target}`,
      );
    }
  };
  await add("benchmark", benchmarkDirectory, benchmarkDirectory);
  for (const root of HARNESS_ROOTS) await add("harness", root, join(HARNESS_ROOTS[0]!, ".."));
  return hashes;
}

export function compareSources(before: SourceHashes, after: SourceHashes): InputChange[] {
  const changes: InputChange[] = [];
  const split = (key: string) => {
    const at = key.indexOf(":");
    return { scope: key.slice(0, at) as InputChange["scope"], path: key.slice(at + 1) };
  };
  for (const [key, hash] of before) {
    const now = after.get(key);
    if (now === undefined) changes.push({ ...split(key), change: "removed" });
    else if (now !== hash) changes.push({ ...split(key), change: "modified" });
  }
  for (const key of after.keys()) if (!before.has(key)) changes.push({ ...split(key), change: "added" });
  return changes.sort((a, b) => (a.scope + a.path < b.scope + b.path ? -1 : 1));
}

export function describeInputChanges(changes: readonly InputChange[]): string {
  return changes
    .map((change) => `${change.scope === "benchmark" ? "" : `${change.scope} `}${change.path} (${change.change})`)
    .join(", ");
}

/** The store event that records changes seen during an invocation. */
export const INPUTS_CHANGED_EVENT = "inputs.changed";

export interface InputChangeRecord {
  /** When the change was seen (the end of the invocation, or before a frozen copy was used). */
  at: string;
  changes: InputChange[];
}

/** The store event that records integrity problems of the run's frozen inputs, found before they were used. */
export const INPUTS_TAMPERED_EVENT = "inputs.tampered";

/** Every frozen-input integrity problem recorded in a run's store, each once, oldest first. */
export function recordedInputProblems(store: Pick<ResultsStore, "eventsOf">): IntegrityProblem[] {
  const problems = store
    .eventsOf([INPUTS_TAMPERED_EVENT])
    .flatMap((event) => (event.value as { problems: IntegrityProblem[] }).problems);
  return [...new Map(problems.map((problem) => [problem.message, problem])).values()];
}

/** Every change recorded in a run's store, oldest first (its other events, such as a large plan, are not read). */
export function recordedInputChanges(store: Pick<ResultsStore, "eventsOf">): InputChangeRecord[] {
  return store
    .eventsOf([INPUTS_CHANGED_EVENT])
    .map((event) => ({ at: event.at, changes: (event.value as { changes: InputChange[] }).changes }));
}

/** A folder that is gone (a harness without the control model package) has no sources. */
function walkTreeIfPresent(root: string): TreeEntry[] {
  try {
    return walkTree(root, NOT_BENCHMARK_SOURCE);
  } catch {
    return [];
  }
}
