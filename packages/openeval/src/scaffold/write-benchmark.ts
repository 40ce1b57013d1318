// `openeval init`: a new benchmark (benchmark.ts, a code-judged and a rubric eval with controls, .gitignore, README),
// or one more eval in an existing one. Nothing is ever overwritten: every path is checked first, and each file is
// copied exclusively, so a file that appears meanwhile is not overwritten either.
import { constants } from "node:fs";
import { copyFile, lstat, mkdir, readdir } from "node:fs/promises";
import { dirname, join, relative, resolve, sep } from "node:path";
import { EVAL_ID } from "../load/index.ts";
import { ScaffoldError } from "./errors.ts";
import {
  BENCHMARK_TEMPLATE_DIRECTORY,
  evalTemplateDirectory,
  guideFiles,
  STARTER_EVALS,
  type EvalTemplate,
} from "./templates.ts";

export interface Scaffolded {
  /** Absolute path of the benchmark folder. */
  directory: string;
  /** The files written, relative to `directory`, with "/" separators, sorted. */
  written: string[];
  /** Where the eval-writing guide and llms.txt are on this machine. */
  guides: { guide: string; llms: string };
}

/**
 * Writes a working benchmark into `directory` (created when missing), refusing when any of its paths exists.
 * @example const { written } = await writeBenchmark("my-bench"); // benchmark.ts, evals/fix-spelling/judge.ts, …
 * @throws ScaffoldError `OE_INIT_WOULD_OVERWRITE` naming what exists.
 */
export async function writeBenchmark(directory: string): Promise<Scaffolded> {
  const target = resolve(directory);
  if ((await kindOf(target)) === "file") throw new ScaffoldError("notAFolder", { path: target });
  const templateFiles = await listFiles(BENCHMARK_TEMPLATE_DIRECTORY);
  const topLevel = [...templateFiles.map(outputName), "evals"];
  const existing: string[] = [];
  for (const name of topLevel) if ((await kindOf(join(target, name))) !== null) existing.push(name);
  if (existing.length > 0) throw new ScaffoldError("benchmarkFilesExist", { directory: target, existing });

  const written: string[] = [];
  for (const file of templateFiles)
    written.push(await copyNew(join(BENCHMARK_TEMPLATE_DIRECTORY, file), target, outputName(file)));
  for (const [id, template] of Object.entries(STARTER_EVALS)) written.push(...(await copyEval(target, id, template)));
  return { directory: target, written: written.sort(), guides: guideFiles() };
}

/**
 * Adds evals/<id>/ (prompt.md, judge.ts or judge.md, workspace/, controls/) to the benchmark in `directory`.
 * @example await addEval(".", "parse-dates", "rubric");
 * @throws ScaffoldError for an invalid id, a folder without benchmark.ts, or an eval that exists.
 */
export async function addEval(directory: string, id: string, template: EvalTemplate): Promise<Scaffolded> {
  if (!EVAL_ID.test(id)) throw new ScaffoldError("evalIdInvalid", { id });
  const target = resolve(directory);
  if ((await kindOf(join(target, "benchmark.ts"))) === null) throw new ScaffoldError("noBenchmark", { directory });
  const folder = join(target, "evals", id);
  if ((await kindOf(folder)) !== null) throw new ScaffoldError("evalExists", { id, path: folder });
  const written = await copyEval(target, id, template);
  return { directory: target, written: written.sort(), guides: guideFiles() };
}

async function copyEval(benchmark: string, id: string, template: EvalTemplate): Promise<string[]> {
  const from = evalTemplateDirectory(template);
  const written: string[] = [];
  for (const file of await listFiles(from))
    written.push(await copyNew(join(from, file), benchmark, `evals/${id}/${file}`));
  return written;
}

/**
 * npm leaves any `.gitignore` out of a packed package, so the template keeps it as `gitignore`; it is written back
 * under its real name.
 */
function outputName(templateFile: string): string {
  return templateFile === "gitignore" ? ".gitignore" : templateFile;
}

/** Copies one file to `root`/`path`, failing rather than replacing a file that is there. */
async function copyNew(from: string, root: string, path: string): Promise<string> {
  const to = join(root, path);
  await mkdir(dirname(to), { recursive: true });
  await copyFile(from, to, constants.COPYFILE_EXCL);
  return path;
}

/** Every file under `directory`, relative to it with "/" separators. */
async function listFiles(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => relative(directory, join(entry.parentPath, entry.name)).split(sep).join("/"))
    .sort();
}

/** What is at `path`, not following a link (a dangling link exists too): null for nothing. */
async function kindOf(path: string): Promise<"file" | "folder" | null> {
  try {
    return (await lstat(path)).isDirectory() ? "folder" : "file";
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
