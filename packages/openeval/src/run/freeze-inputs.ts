// Freezing an invocation's inputs: before any candidate starts, every file of each eval
// folder that a candidate or judge will use (workspace/, judge-only files such as REFERENCE_FIX.md, judge.md,
// judge.ts and the bundle it became) is copied content-addressed into the run store (`inputs/objects/<sha256>`)
// and laid out as a frozen eval folder (`inputs/evals/<id>/`). Candidates are seeded and judges run from that
// folder, which is checked against its manifest (and restored from the objects) before each use, so a candidate
// that edits the benchmark folder — or the frozen copy — cannot change its own grade or another eval's start.
// The harness's programs that grade (the code-judge worker, the rubric judge's tool server) are frozen too, bundled
// into `inputs/harness/` with their hashes (`inputs/harness.json`), so patching them does not either: a frozen copy
// that cannot be put back (its object or a program was rewritten) is an integrity error that refuses the work. Every
// input is scanned for the secrets this runner knows first: one that holds any is refused, never redacted, since a
// redacted copy would seed the candidate and grade it with something other than the benchmark's files, while the
// benchmark would go on handing the secret around.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, rm, symlink } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import * as z from "zod";
import { bundleProgram } from "../judge/index.ts";
import {
  CASE_OVERLAYS_FOLDER,
  caseFilesOf,
  workspaceFolders,
  type BenchmarkDefinition,
  type EvalDefinition,
} from "../load/index.ts";
import { findSecretsIn, type KnownSecret } from "../opencode/index.ts";
import { InputSecretError } from "./errors.ts";
import { writeFileAtomic, writeJsonAtomic } from "../util/files.ts";
import { sha256 } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";
import {
  checkFrozenPrograms,
  differencesOf,
  frozenInputProblems,
  FrozenManifestSchema,
  INPUTS_DIRECTORY,
  objectIntact,
  objectName,
  PROGRAMS_MANIFEST,
  readManifest,
  type FrozenCheck,
  type FrozenFile,
  type FrozenPrograms,
  type IntegrityProblem,
} from "../records/index.ts";
import type { InputChange } from "../summary/index.ts";

/** The judge.ts bundle as graded, beside the files it was made from. */
const BUNDLE_FILE = "judge.bundle.js";
/** An eval folder's own definition files, frozen when present. */
const DEFINITION_FILES = ["prompt.md", "judge.md", "judge.ts", "eval.ts", "instruction.md", "task.toml"];

export interface FrozenEval {
  evalId: string;
  /** The live eval folder it was frozen from. */
  source: string;
  /** The frozen eval folder: a candidate's workspace is seeded from `<directory>/workspace`, judges run here. */
  directory: string;
  files: FrozenFile[];
}

export interface FrozenInputs {
  benchmark: BenchmarkDefinition;
  frozen: Map<string, FrozenEval>;
  /** The code-judge worker bundled as it is now (`inputs/harness/`), null when no eval has a judge.ts. */
  codeWorker: string | null;
  /** The rubric judge's tool server bundled as it is now (`inputs/harness/`), null when no eval has a judge.md. */
  judgeTools: string | null;
  /** Each frozen program file (relative to `inputs/`, its bytecode beside it included) → its sha256. */
  programs: FrozenPrograms;
}

/**
 * Freezes every eval of the benchmark and the harness programs its judges run; returns the definition candidates
 * and judges must use.
 * @throws InputSecretError naming each input that holds one of `secrets` (such a file is never written).
 */
export async function freezeInputs(
  benchmark: BenchmarkDefinition,
  runDirectory: string,
  secrets: readonly KnownSecret[],
): Promise<FrozenInputs> {
  const inputs = join(runDirectory, INPUTS_DIRECTORY);
  await linkPackages(join(benchmark.directory, "node_modules"), join(inputs, "node_modules"));
  const frozen = new Map<string, FrozenEval>();
  const evals: EvalDefinition[] = [];
  const holdingSecrets: InputSecretError["found"] = [];
  for (const evaluation of benchmark.evals) {
    const entry = await freezeEval(evaluation, inputs, (path, data) => {
      const found = findSecretsIn(data, secrets);
      if (found.length > 0)
        holdingSecrets.push({ path: `evals/${evaluation.id}/${path}`, sources: found.map((secret) => secret.source) });
      return found.length === 0;
    });
    frozen.set(evaluation.id, entry);
    evals.push({
      ...evaluation,
      directory: entry.directory,
      workspace: {
        ...evaluation.workspace,
        directory: evaluation.workspace.directory ? join(entry.directory, "workspace") : null,
      },
    });
  }
  if (holdingSecrets.length > 0) throw new InputSecretError(holdingSecrets);
  const harness = join(inputs, "harness");
  const codeWorker = benchmark.evals.some((evaluation) => evaluation.code)
    ? await bundleProgram("code-worker", harness)
    : null;
  const judgeTools = benchmark.evals.some((evaluation) => evaluation.rubric)
    ? await bundleProgram("judge-tools", harness)
    : null;
  const programs = new Map<string, string>();
  for (const file of programFiles([codeWorker, judgeTools]))
    programs.set(relative(inputs, file), sha256(await readFile(file)));
  await writeJsonAtomic(join(inputs, PROGRAMS_MANIFEST), Object.fromEntries(programs));
  return { benchmark: { ...benchmark, evals }, frozen, codeWorker, judgeTools, programs };
}

/**
 * Checks an eval's frozen folder (putting back what can be) and the frozen programs before either is used: what was
 * found, the integrity problems among it, and whether grading with them can be trusted.
 */
export async function checkFrozenBeforeUse(
  entry: FrozenEval,
  runDirectory: string,
  programs: FrozenPrograms,
): Promise<{ check: FrozenCheck; problems: IntegrityProblem[]; usable: boolean }> {
  const check = await restoreFrozen(entry);
  const alteredPrograms = await checkFrozenPrograms(runDirectory, programs);
  const problems = [
    ...frozenInputProblems(
      entry.evalId,
      check,
      "changed during the run (put back from the run's verified copies before use)",
    ),
    ...frozenInputProblems("harness", { restored: [], added: [], damaged: alteredPrograms }, ""),
  ];
  return { check, problems, usable: check.damaged.length === 0 && alteredPrograms.length === 0 };
}

/**
 * The frozen program files a job runs, out of all the run froze: a candidate runs none; a judging runs the code-judge
 * worker, the rubric judge's tool server, or both (`used`: their paths, null for one not used).
 */
export function programsRunBy(
  programs: FrozenPrograms,
  runDirectory: string,
  used: readonly (string | null)[],
): FrozenPrograms {
  const files = new Set(programFiles(used).map((file) => relative(join(runDirectory, INPUTS_DIRECTORY), file)));
  return new Map([...programs].filter(([path]) => files.has(path)));
}

/** A bundled program's files: the script and the bytecode Bun loads beside it. */
function programFiles(programs: readonly (string | null)[]): string[] {
  return programs.flatMap((program) => (program ? [program, `${program}.jsc`] : []));
}

/**
 * The benchmark's eval definition and judge-only files that differ now from what the run froze (relative to the
 * benchmark folder): what a run or `--new` would use although that run did not. Workspaces are not compared (a changed
 * one changes the candidate's fingerprint, which the plan says).
 * @example await compareWithFrozen(benchmark, "results/2026-12-01T10-00-00.000Z-1a2b3c4d") // [{ scope: "benchmark", path: "evals/x/judge.ts", change: "modified" }]
 */
export async function compareWithFrozen(benchmark: BenchmarkDefinition, runDirectory: string): Promise<InputChange[]> {
  const changes: InputChange[] = [];
  for (const evaluation of benchmark.evals) {
    const manifest = await readManifest(
      join(runDirectory, INPUTS_DIRECTORY, "evals", `${evaluation.id}.json`),
      FrozenManifestSchema,
    );
    if (manifest === null) continue;
    const frozen = new Map(
      manifest.files.flatMap((file) => (file.kind === "file" ? [[file.path, file.sha256] as const] : [])),
    );
    const live = new Map(evaluation.judgeFiles.map((file) => [file.path, file.sha256]));
    for (const name of [...DEFINITION_FILES, ...caseFiles(evaluation)]) {
      const file = join(evaluation.directory, name);
      if (existsSync(file)) live.set(name, sha256(await readFile(file)));
    }
    const seeds = candidateFolders(evaluation);
    const judgeSide = [...frozen.keys()].filter(
      (name) => name !== BUNDLE_FILE && !seeds.some((folder) => name.startsWith(`${folder}/`)),
    );
    const path = (name: string) =>
      relative(benchmark.directory, join(evaluation.directory, name)).split("\\").join("/");
    for (const name of judgeSide) {
      const now = live.get(name);
      if (now === undefined) changes.push({ scope: "benchmark", path: path(name), change: "removed" });
      else if (now !== frozen.get(name)) changes.push({ scope: "benchmark", path: path(name), change: "modified" });
    }
    for (const name of live.keys())
      if (!frozen.has(name)) changes.push({ scope: "benchmark", path: path(name), change: "added" });
  }
  return changes;
}

/**
 * Checks a frozen eval folder against its manifest before it is used; any file changed, missing or added is put
 * back from the content-addressed objects (tampering with the run store). A file whose object was altered or
 * removed cannot be put back: it is named as damaged, and the folder must not be used.
 */
export async function restoreFrozen(entry: FrozenEval): Promise<FrozenCheck> {
  const inputs = dirname(dirname(entry.directory));
  const named = (path: string) => relative(dirname(inputs), join(entry.directory, path));
  const { changed, added } = await differencesOf(entry);
  const byPath = new Map(entry.files.map((file) => [file.path, file]));
  const check: FrozenCheck = { restored: [], added, damaged: [] };
  for (const path of changed) {
    const file = byPath.get(path)!;
    if (file.kind === "file" && !objectIntact(inputs, file.sha256)) {
      check.damaged.push(objectName(file));
      continue;
    }
    check.restored.push(named(path));
    await placeFile(entry.directory, inputs, file);
  }
  for (const path of added) await rm(join(entry.directory, path), { force: true });
  return check;
}

/** `admit(path, data)`: whether a file may be frozen; one refused is never written. */
async function freezeEval(
  evaluation: EvalDefinition,
  inputs: string,
  admit: (path: string, data: Uint8Array | string) => boolean,
): Promise<FrozenEval> {
  const files: FrozenFile[] = [];
  const store = async (path: string, data: Uint8Array | string, mode = 0o644) => {
    if (!admit(path, data)) return;
    const hash = sha256(data);
    const object = join(inputs, "objects", hash);
    if (!existsSync(object)) await writeFileAtomic(object, data);
    files.push({ kind: "file", path, sha256: hash, mode });
  };
  for (const name of [...DEFINITION_FILES, ...caseFiles(evaluation)]) {
    const file = join(evaluation.directory, name);
    if (existsSync(file)) await store(name, await readFile(file));
  }
  if (evaluation.code) await store(BUNDLE_FILE, evaluation.code.source);
  for (const judgeFile of evaluation.judgeFiles) {
    const data = await readFile(join(evaluation.directory, judgeFile.path));
    // Frozen as the plan saw it: a file edited since loading is a change the run reports, not an input.
    if (sha256(data) !== judgeFile.sha256)
      throw new Error(
        `${join(evaluation.directory, judgeFile.path)} changed while the run was being planned; run again`,
      );
    await store(judgeFile.path, data);
  }
  for (const folder of candidateFolders(evaluation)) {
    for (const entry of walkTree(join(evaluation.directory, folder), new Set([".git"]))) {
      const path = `${folder}/${entry.path}`;
      if (entry.kind === "symlink") files.push({ kind: "symlink", path, target: entry.target });
      else await store(path, await readFile(entry.absolute), entry.mode);
    }
  }
  const directory = join(inputs, "evals", evaluation.id);
  await rm(directory, { recursive: true, force: true });
  for (const file of files) await placeFile(directory, inputs, file);
  await linkPackages(join(evaluation.directory, "node_modules"), join(directory, "node_modules"));
  await writeJsonAtomic(join(inputs, "evals", `${evaluation.id}.json`), {
    evalId: evaluation.id,
    source: evaluation.directory,
    files,
    ...(evaluation.cases
      ? {
          cases: evaluation.cases.map((item) => ({
            id: item.id,
            input: item.input,
            expected: item.expected ?? null,
            tags: item.tags,
          })),
        }
      : {}),
  });
  return { evalId: evaluation.id, source: evaluation.directory, directory, files };
}

/**
 * The eval's folders the candidate starts from: workspace/, or a repository workspace's overlay and revisions
 * folders; environment/ (its image is pinned by id, and the folder it was built from is kept with the run).
 */
function candidateFolders(evaluation: EvalDefinition): string[] {
  return [
    ...(evaluation.workspace.directory ? ["workspace"] : workspaceFolders(evaluation.settings.workspace)),
    ...(evaluation.environment?.directory ? ["environment"] : []),
    ...(evaluation.cases?.some((item) => item.overlay) ? [CASE_OVERLAYS_FOLDER] : []),
  ];
}

/** The eval's case files that exist: candidate inputs, frozen so the run keeps what its cases were. */
function caseFiles(evaluation: EvalDefinition): string[] {
  if (!evaluation.cases) return [];
  return caseFilesOf(evaluation.settings.cases).filter((name) => existsSync(join(evaluation.directory, name)));
}

/** Lays one file out from its object (checked against its sha256: a damaged object is an error, never used). */
async function placeFile(directory: string, inputs: string, file: FrozenFile): Promise<void> {
  const target = join(directory, file.path);
  await mkdir(dirname(target), { recursive: true });
  await rm(target, { force: true, recursive: true });
  if (file.kind === "symlink") {
    await symlink(file.target, target);
    return;
  }
  const object = join(inputs, "objects", file.sha256);
  if (!existsSync(object) || sha256(await readFile(object)) !== file.sha256) {
    throw new Error(
      `The frozen copy of ${file.path} (${object}) was altered or removed; its run store is damaged — start a new run with --new`,
    );
  }
  await copyFile(object, target);
  await chmod(target, file.mode);
}

/** Packages a judge imports resolve from the frozen folder as they did from the live one. */
async function linkPackages(source: string, target: string): Promise<void> {
  if (!existsSync(source) || existsSync(target)) return;
  await mkdir(dirname(target), { recursive: true });
  await symlink(source, target);
}
