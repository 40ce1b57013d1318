// A run's frozen inputs as they lie in its directory (`inputs/`): the manifests the runner wrote when it froze each eval
// folder and the harness programs, and the read-only checks of them against their content-addressed objects — what a
// runner does before each use, and `openeval verify` does after the run. Freezing itself is the runner's
// (run/freeze-inputs.ts).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { sha256 } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";
import type { IntegrityProblem } from "./integrity.ts";

export const INPUTS_DIRECTORY = "inputs";
/** The frozen harness programs' files (relative to `inputs/`) and their sha256, for checking before use and by verify. */
export const PROGRAMS_MANIFEST = "harness.json";

const FrozenFileSchema = z.union([
  z.object({ kind: z.literal("file"), path: z.string(), sha256: z.string(), mode: z.number() }),
  z.object({ kind: z.literal("symlink"), path: z.string(), target: z.string() }),
]);
const FrozenCaseSchema = z.object({
  id: z.string(),
  input: z.record(z.string(), z.unknown()),
  expected: z.unknown(),
  tags: z.array(z.string()),
});
/** A case as its eval run's judges were given it: its lines' values after eval.ts's schemas, expected null when none. */
export type FrozenCase = z.infer<typeof FrozenCaseSchema>;

/** `inputs/evals/<id>.json`: what an eval folder was frozen as. */
export const FrozenManifestSchema = z.object({
  evalId: z.string().regex(/^[^/\\]+$/),
  source: z.string(),
  files: z.array(FrozenFileSchema),
  /** An eval with cases: its cases as loaded, so a recording read later gets its case as the run used it. */
  cases: z.array(FrozenCaseSchema).optional(),
});
export type FrozenFile = z.infer<typeof FrozenFileSchema>;

/** Each frozen program file (relative to `inputs/`) → its sha256. */
export type FrozenPrograms = ReadonlyMap<string, string>;

/**
 * What checking a frozen eval folder found: frozen files that had been changed or removed and were put back from the
 * objects, and frozen files that could not be, their object altered or removed (relative to the run directory); files
 * added beside them, removed again (relative to the eval folder).
 */
export interface FrozenCheck {
  restored: string[];
  added: string[];
  damaged: string[];
}

/** The frozen programs whose files no longer hash as frozen (relative to the run directory); [] when all are intact. */
export async function checkFrozenPrograms(runDirectory: string, programs: FrozenPrograms): Promise<string[]> {
  const inputs = join(runDirectory, INPUTS_DIRECTORY);
  const altered: string[] = [];
  for (const [path, hash] of programs) {
    const file = join(inputs, path);
    if (!existsSync(file) || sha256(await readFile(file)) !== hash) altered.push(join(INPUTS_DIRECTORY, path));
  }
  return altered;
}

/**
 * The frozen inputs of a finished run as they are on disk, read only (`openeval verify`): each eval folder against its
 * manifest and objects, and the harness programs against theirs. One problem per eval folder, and one for the harness.
 */
export async function verifyFrozenInputs(runDirectory: string): Promise<IntegrityProblem[]> {
  const inputs = join(runDirectory, INPUTS_DIRECTORY);
  const problems: IntegrityProblem[] = [];
  const manifests = existsSync(join(inputs, "evals"))
    ? readdirSync(join(inputs, "evals")).filter((name) => name.endsWith(".json"))
    : [];
  for (const name of manifests.sort()) {
    const manifest = await readManifest(join(inputs, "evals", name), FrozenManifestSchema);
    if (manifest === null) {
      problems.push({
        kind: "inputs",
        id: name.slice(0, -".json".length),
        message: `${INPUTS_DIRECTORY}/evals/${name}: not a frozen eval manifest (altered); nothing is graded with it — start a new run with --new`,
      });
      continue;
    }
    const differences = await differencesOf({ ...manifest, directory: join(inputs, "evals", manifest.evalId) });
    const restored = differences.changed.map((path) => `${INPUTS_DIRECTORY}/evals/${manifest.evalId}/${path}`);
    const damaged = manifest.files.flatMap((file) =>
      file.kind === "file" && !objectIntact(inputs, file.sha256) ? [objectName(file)] : [],
    );
    problems.push(
      ...frozenInputProblems(
        manifest.evalId,
        { restored, added: differences.added, damaged },
        "changed after it was frozen",
      ),
    );
  }
  if (existsSync(join(inputs, PROGRAMS_MANIFEST))) {
    const programs = await readManifest(join(inputs, PROGRAMS_MANIFEST), z.record(z.string(), z.string()));
    const damaged =
      programs === null
        ? [`${INPUTS_DIRECTORY}/${PROGRAMS_MANIFEST}`]
        : await checkFrozenPrograms(runDirectory, new Map(Object.entries(programs)));
    problems.push(...frozenInputProblems("harness", { restored: [], added: [], damaged }, ""));
  }
  return problems;
}

/** A manifest of the frozen inputs, or null when it is not one (a candidate in process mode can rewrite it too). */
export async function readManifest<T>(path: string, schema: z.ZodType<T>): Promise<T | null> {
  try {
    const parsed = schema.safeParse(JSON.parse(await readFile(path, "utf8")));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/**
 * The integrity problems a check of frozen inputs found, for `owner` (an eval id, or "harness"); `restoredNote` says
 * what became of the frozen files that could be put back. Files added beside them are not one: a judge may leave files
 * in the folder it runs in.
 */
export function frozenInputProblems(owner: string, check: FrozenCheck, restoredNote: string): IntegrityProblem[] {
  const problems: IntegrityProblem[] = [];
  const subject = owner === "harness" ? "the run's frozen harness programs" : `eval ${owner}'s frozen inputs`;
  if (check.restored.length > 0)
    problems.push({ kind: "inputs", id: owner, message: `${subject}: ${check.restored.join(", ")} ${restoredNote}` });
  if (check.damaged.length > 0) {
    problems.push({
      kind: "inputs",
      id: owner,
      message: `${subject}: ${check.damaged.join(", ")} altered or removed; nothing is graded with them — start a new run with --new`,
    });
  }
  return problems;
}

/** How a frozen folder differs from its manifest (paths relative to it): frozen files changed or missing, and files added. */
export async function differencesOf(entry: {
  directory: string;
  files: readonly FrozenFile[];
}): Promise<{ changed: string[]; added: string[] }> {
  const changed: string[] = [];
  const present = new Map(
    (existsSync(entry.directory) ? walkTree(entry.directory, new Set(["node_modules"])) : []).map((file) => [
      file.path,
      file,
    ]),
  );
  for (const file of entry.files) {
    const found = present.get(file.path);
    present.delete(file.path);
    const intact =
      found !== undefined &&
      (file.kind === "file"
        ? found.kind === "file" && sha256(await readFile(found.absolute)) === file.sha256
        : found.kind === "symlink" && found.target === file.target);
    if (!intact) changed.push(file.path);
  }
  return { changed, added: [...present.keys()] };
}

/** A frozen file's object, named for messages (relative to the run directory). */
export function objectName(file: { path: string; sha256: string }): string {
  return `${INPUTS_DIRECTORY}/objects/${file.sha256} (the frozen ${file.path})`;
}

export function objectIntact(inputs: string, hash: string): boolean {
  const object = join(inputs, "objects", hash);
  return existsSync(object) && sha256(readFileSync(object)) === hash;
}

/**
 * A case of an eval as the run last froze it (its latest invocation's definition); null when the run froze no such
 * case (or froze the eval before cases were kept with it).
 */
export async function readFrozenCase(runDirectory: string, evalId: string, caseId: string): Promise<FrozenCase | null> {
  const manifest = await readManifest(
    join(runDirectory, INPUTS_DIRECTORY, "evals", `${evalId}.json`),
    FrozenManifestSchema,
  );
  return manifest?.cases?.find((item) => item.id === caseId) ?? null;
}
