// Evaluating one invariant of benchmark.ts over a run: its input laid out under /input (the summary JSON, or each
// active eval run's final workspace restored from its sealed recording), the benchmark folder's files beside it, and
// the command run in the verification sandbox. Whatever keeps it from running is an outcome (unevaluable), never an
// exception: the invariants contributor must not pass over a check that did not run.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Invariant } from "../load/index.ts";
import { openSealedEvidence } from "../recording/index.ts";
import type { InvariantStatus } from "../records/index.ts";
import type { TarEntry } from "../sandbox/index.ts";
import { walkTree } from "../util/tree.ts";
import { sha256 } from "../util/hash.ts";
import type { VerificationSetup } from "./judge-source.ts";
import { DEFAULT_VERIFICATION_LIMITS } from "./verification/index.ts";
import { runInvariantCheck } from "./verification/invariant-check.ts";
import { workspaceEntries } from "./verification/snapshot-archive.ts";

/** Each stream of an invariant's output is kept up to this many bytes (it is stored with the run). */
export const INVARIANT_LOG_BYTES = 65_536;
/** The benchmark folder copied to /benchmark, and the workspaces copied to /input, are refused past these sizes. */
const MAX_BENCHMARK_BYTES = 64 * 1024 * 1024;
const MAX_INPUT_BYTES = 512 * 1024 * 1024;
/** Never copied to /benchmark: the runs themselves, dependencies and history. */
const BENCHMARK_EXCLUDED = new Set(["node_modules", ".git"]);
const RESULTS_FOLDER = "results";
const BENCHMARK_FILE = "benchmark.ts";

/** What an invariant reads: the summary's JSON text, or the active eval runs' recordings. */
export type InvariantInput =
  | { over: "summary"; summary: string }
  | {
      over: "workspaces";
      runDirectory: string;
      evalRuns: { evalId: string; evalRunId: string; evidence: { directory: string; hash: string } }[];
    };

export interface InvariantOutcome {
  status: Exclude<InvariantStatus, "not-evaluated">;
  reason: string | null;
  /** False when the command never ran for a reason outside it (no engine or image, the engine failed). */
  ran: boolean;
  exitCode: number | null;
  stdout: string;
  stderr: string;
  logsTruncated: boolean;
  elapsedMs: number;
}

export interface EvaluateInvariantRequest {
  invariant: Invariant;
  input: InvariantInput;
  benchmark: TarEntry[];
  /** The run's verification setup: its image, engine and limits, or why there is none. */
  verification: VerificationSetup;
  runId: string;
}

/**
 * @example
 * const outcome = await evaluateInvariant({ invariant, input: { over: "summary", summary }, benchmark, verification, runId });
 * outcome.status // "holds" | "violated" | "unevaluable"
 */
export async function evaluateInvariant(request: EvaluateInvariantRequest): Promise<InvariantOutcome> {
  const { invariant, verification } = request;
  const startedAt = Date.now();
  const notRun = (reason: string, ran = false): InvariantOutcome => ({
    status: "unevaluable",
    reason,
    ran,
    exitCode: null,
    stdout: "",
    stderr: "",
    logsTruncated: false,
    elapsedMs: Date.now() - startedAt,
  });
  if (!verification.image)
    return notRun(
      `invariants run in the verification sandbox, which this run cannot use: ${verification.unavailable ?? "no verification image"}`,
    );
  let input: TarEntry[];
  try {
    input = await inputEntries(request.input);
  } catch (error) {
    return notRun(`its input could not be laid out: ${(error as Error).message}`, true);
  }
  const limits = { ...DEFAULT_VERIFICATION_LIMITS, ...verification.limits };
  try {
    const outcome = await runInvariantCheck({
      image: verification.image,
      argv: invariant.argv,
      timeoutMs: invariant.timeoutMs,
      input,
      benchmark: request.benchmark,
      limits: { ...limits, tmpMiB: limits.tmpMiB ?? DEFAULT_VERIFICATION_LIMITS.tmpMiB },
      logBytes: INVARIANT_LOG_BYTES,
      runId: request.runId,
      engine: verification.engine,
    });
    const logs = {
      exitCode: outcome.exitCode,
      stdout: outcome.stdout,
      stderr: outcome.stderr,
      logsTruncated: outcome.logsTruncated,
      elapsedMs: outcome.elapsedMs,
    };
    if (outcome.state === "timed_out")
      return {
        ...logs,
        status: "unevaluable",
        reason: `it did not finish within its timeoutMs (${invariant.timeoutMs} ms) and was killed`,
        ran: true,
      };
    if (outcome.state === "not_started")
      return {
        ...logs,
        status: "unevaluable",
        reason: `its command could not start (exit code ${outcome.exitCode}: ${invariant.argv[0]} is missing or not executable in the verification image, with /benchmark as its working directory)`,
        ran: true,
      };
    return { ...logs, status: outcome.exitCode === 0 ? "holds" : "violated", reason: null, ran: true };
  } catch (error) {
    return notRun(`the verification sandbox failed: ${(error as Error).message}`);
  }
}

/** The benchmark folder's files for /benchmark (not its results, dependencies or .git), and one hash of them. */
export function benchmarkEntries(directory: string): { entries: TarEntry[]; sha256: string; problem: string | null } {
  const entries: TarEntry[] = [];
  const listing: string[] = [];
  let bytes = 0;
  for (const entry of walkTree(directory, BENCHMARK_EXCLUDED)) {
    if (entry.path === RESULTS_FOLDER || entry.path.startsWith(`${RESULTS_FOLDER}/`)) continue;
    if (entry.kind === "symlink") {
      entries.push({ type: "symlink", path: entry.path, target: entry.target });
      listing.push(`${entry.path} -> ${entry.target}`);
      continue;
    }
    bytes += entry.bytes;
    if (bytes > MAX_BENCHMARK_BYTES)
      return {
        entries: [],
        sha256: "",
        problem: `the benchmark folder holds more than ${MAX_BENCHMARK_BYTES / 1024 / 1024} MiB besides results/, node_modules/ and .git/, too much to copy to /benchmark`,
      };
    const data = new Uint8Array(readFileSync(entry.source));
    // Readable by the command's user, never writable by it (root owns them); executables stay executable.
    entries.push({ type: "file", path: entry.path, data, mode: (entry.mode & 0o755) | 0o644 });
    // benchmark.ts is there to read, but left out of the hash: each invariant's own declaration is keyed instead, so
    // adding or editing one runs only that one.
    if (entry.path !== BENCHMARK_FILE) listing.push(`${entry.path} ${entry.mode & 0o111 ? "x" : "-"} ${sha256(data)}`);
  }
  return { entries: withParents(entries), sha256: sha256(listing.join("\n")), problem: null };
}

async function inputEntries(input: InvariantInput): Promise<TarEntry[]> {
  if (input.over === "summary")
    return [{ type: "file", path: "summary.json", data: new TextEncoder().encode(input.summary), mode: 0o644 }];
  const entries: TarEntry[] = [];
  let bytes = 0;
  for (const evalRun of input.evalRuns) {
    const evidence = await openSealedEvidence(
      join(input.runDirectory, evalRun.evidence.directory),
      evalRun.evidence.hash,
    );
    const base = `workspaces/${evalRun.evalId}/${evalRun.evalRunId}`;
    entries.push({ type: "directory", path: base, mode: 0o755 });
    for (const entry of await workspaceEntries(evidence, "final")) {
      if (entry.type === "file") bytes += entry.data.length;
      if (bytes > MAX_INPUT_BYTES)
        throw new Error(`the final workspaces hold more than ${MAX_INPUT_BYTES / 1024 / 1024} MiB`);
      const path = `${base}/${entry.path}`;
      // Root owns them: the command reads every file and changes none.
      if (entry.type === "file") entries.push({ ...entry, path, mode: (entry.mode ?? 0o644) | 0o644 });
      else if (entry.type === "directory") entries.push({ ...entry, path, mode: 0o755 });
      else entries.push({ ...entry, path });
    }
  }
  return withParents(entries);
}

/** Entries with every parent folder listed first, so the archive creates them with known owners and modes. */
function withParents(entries: TarEntry[]): TarEntry[] {
  const listed = new Set(entries.filter((entry) => entry.type === "directory").map((entry) => entry.path));
  const parents: TarEntry[] = [];
  for (const entry of entries) {
    const parts = entry.path.split("/");
    for (let depth = 1; depth < parts.length; depth++) {
      const path = parts.slice(0, depth).join("/");
      if (listed.has(path)) continue;
      listed.add(path);
      parents.push({ type: "directory", path, mode: 0o755 });
    }
  }
  const directories = [...parents, ...entries.filter((entry) => entry.type === "directory")].sort(
    (a, b) => a.path.split("/").length - b.path.split("/").length,
  );
  return [...directories, ...entries.filter((entry) => entry.type !== "directory")];
}
