// Freezing an invocation's inputs (issue 14 §2; SPEC §5, §8): before any candidate starts, every file of each eval
// folder that a candidate or judge will use (workspace/, judge-only files such as REFERENCE_FIX.md, judge.md,
// judge.ts and the bundle it became) is copied content-addressed into the run store (`inputs/objects/<sha256>`)
// and laid out as a frozen eval folder (`inputs/evals/<id>/`). Candidates are seeded and judges run from that
// folder, which is checked against its manifest (and restored from the objects) before each use, so a candidate
// that edits the benchmark folder — or the frozen copy — cannot change its own grade or another eval's start.
// The harness's programs that grade (the code-judge worker, the rubric judge's tool server) are frozen too, bundled
// into `inputs/harness/`, so patching them does not either. Every input is scanned for the secrets this runner knows
// first: one that holds any is refused, never redacted, since a redacted copy would seed the candidate and grade it
// with something other than the benchmark's files, while the benchmark would go on handing the secret around.
import { existsSync } from "node:fs";
import { chmod, copyFile, mkdir, readFile, rm, symlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { bundleProgram } from "../judge/index.ts";
import { workspaceFolders, type BenchmarkDefinition, type EvalDefinition } from "../load/index.ts";
import { findSecretsIn, type KnownSecret } from "../opencode/index.ts";
import { InputSecretError } from "./errors.ts";
import { writeFileAtomic, writeJsonAtomic } from "../util/files.ts";
import { sha256 } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";

export const INPUTS_DIRECTORY = "inputs";
/** The judge.ts bundle as graded, beside the files it was made from. */
const BUNDLE_FILE = "judge.bundle.js";

export type FrozenFile = { kind: "file"; path: string; sha256: string; mode: number } | { kind: "symlink"; path: string; target: string };

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
}

/**
 * Freezes every eval of the benchmark and the harness programs its judges run; returns the definition candidates
 * and judges must use.
 * @throws InputSecretError naming each input that holds one of `secrets` (such a file is never written).
 */
export async function freezeInputs(benchmark: BenchmarkDefinition, runDirectory: string, secrets: readonly KnownSecret[]): Promise<FrozenInputs> {
  const inputs = join(runDirectory, INPUTS_DIRECTORY);
  await linkPackages(join(benchmark.directory, "node_modules"), join(inputs, "node_modules"));
  const frozen = new Map<string, FrozenEval>();
  const evals: EvalDefinition[] = [];
  const holdingSecrets: InputSecretError["found"] = [];
  for (const evaluation of benchmark.evals) {
    const entry = await freezeEval(evaluation, inputs, (path, data) => {
      const found = findSecretsIn(data, secrets);
      if (found.length > 0) holdingSecrets.push({ path: `evals/${evaluation.id}/${path}`, sources: found.map((secret) => secret.source) });
      return found.length === 0;
    });
    frozen.set(evaluation.id, entry);
    evals.push({ ...evaluation, directory: entry.directory, workspace: { ...evaluation.workspace, directory: evaluation.workspace.directory ? join(entry.directory, "workspace") : null } });
  }
  if (holdingSecrets.length > 0) throw new InputSecretError(holdingSecrets);
  const harness = join(inputs, "harness");
  const codeWorker = benchmark.evals.some((evaluation) => evaluation.code) ? await bundleProgram("code-worker", harness) : null;
  const judgeTools = benchmark.evals.some((evaluation) => evaluation.rubric) ? await bundleProgram("judge-tools", harness) : null;
  return { benchmark: { ...benchmark, evals }, frozen, codeWorker, judgeTools };
}

/**
 * Checks a frozen eval folder against its manifest before it is used; any file changed, missing or added is put
 * back from the content-addressed objects. Returns the paths that had been altered (tampering with the run store).
 */
export async function restoreFrozen(entry: FrozenEval): Promise<string[]> {
  const altered: string[] = [];
  const present = new Map(walkTree(entry.directory, new Set(["node_modules"])).map((file) => [file.path, file]));
  for (const file of entry.files) {
    const found = present.get(file.path);
    present.delete(file.path);
    const intact =
      found !== undefined &&
      (file.kind === "file" ? found.kind === "file" && sha256(await readFile(found.absolute)) === file.sha256 : found.kind === "symlink" && found.target === file.target);
    if (intact) continue;
    altered.push(file.path);
    await placeFile(entry.directory, dirname(dirname(entry.directory)), file);
  }
  for (const [path, extra] of present) {
    altered.push(path);
    await rm(extra.absolute, { force: true });
  }
  return altered;
}

/** `admit(path, data)`: whether a file may be frozen; one refused is never written. */
async function freezeEval(evaluation: EvalDefinition, inputs: string, admit: (path: string, data: Uint8Array | string) => boolean): Promise<FrozenEval> {
  const files: FrozenFile[] = [];
  const store = async (path: string, data: Uint8Array | string, mode = 0o644) => {
    if (!admit(path, data)) return;
    const hash = sha256(data);
    const object = join(inputs, "objects", hash);
    if (!existsSync(object)) await writeFileAtomic(object, data);
    files.push({ kind: "file", path, sha256: hash, mode });
  };
  for (const name of ["prompt.md", "judge.md", "judge.ts", "eval.ts"]) {
    const file = join(evaluation.directory, name);
    if (existsSync(file)) await store(name, await readFile(file));
  }
  if (evaluation.code) await store(BUNDLE_FILE, evaluation.code.source);
  for (const judgeFile of evaluation.judgeFiles) {
    const data = await readFile(join(evaluation.directory, judgeFile.path));
    // Frozen as the plan saw it: a file edited since loading is a change the run reports, not an input.
    if (sha256(data) !== judgeFile.sha256) throw new Error(`${join(evaluation.directory, judgeFile.path)} changed while the run was being planned; run again`);
    await store(judgeFile.path, data);
  }
  // What seeds the candidate: workspace/, or a repository workspace's overlay and revisions folders.
  const seeds = evaluation.workspace.directory ? ["workspace"] : workspaceFolders(evaluation.settings.workspace);
  for (const folder of seeds) {
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
  await writeJsonAtomic(join(inputs, "evals", `${evaluation.id}.json`), { evalId: evaluation.id, source: evaluation.directory, files });
  return { evalId: evaluation.id, source: evaluation.directory, directory, files };
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
    throw new Error(`The frozen copy of ${file.path} (${object}) was altered or removed; its run store is damaged — start a new run with --new`);
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
