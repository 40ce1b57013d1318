// Everything the harness reads for a benchmark must resolve inside the benchmark folder. Loading follows an eval's
// entries (prompt.md, judge.ts, workspace/, judge-only files, controls); a run freezes them into results/ and hands
// them to the candidate or a judge. A symlink out of the folder (`workspace -> ~`) would carry whatever it points at
// (auth.json, /etc/…) along, so it is refused by name; links that stay inside are read like the files they point at.
import { readdirSync, readlinkSync, realpathSync, statSync } from "node:fs";
import { dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import type { LoadProblem } from "./errors.ts";

/** Folders that are not the eval's own files: packages (resolved as a judge imports them) and git's data. */
const NOT_EVAL_FILES = new Set(["node_modules", ".git"]);

export interface EvalFile {
  /** Relative to the eval folder, "/"-separated, as reached (through any links inside the benchmark). */
  path: string;
  absolute: string;
}

/** Whether `path` is `root` or lies under it (both absolute). */
export function isInside(root: string, path: string): boolean {
  const inside = relative(root, path);
  return inside === "" || (inside !== ".." && !inside.startsWith(`..${sep}`) && !isAbsolute(inside));
}

/** Where `path` really leads; for a dangling link, the place its target names (something may be created there). */
export function resolveReal(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return resolve(resolveReal(dirname(path)), readlinkSync(path));
    } catch {
      return resolve(path);
    }
  }
}

/**
 * Every file of an eval folder, following links that resolve inside the benchmark (each real folder once), and a
 * OE_LINK_OUTSIDE_BENCHMARK problem for each entry that resolves outside it, the eval folder itself included.
 * @example listEvalFiles("/b/evals/x", "/b") // → { files: [{ path: "prompt.md", … }, …], problems: [] }
 */
export function listEvalFiles(
  evalDirectory: string,
  benchmarkDirectory: string,
): { files: EvalFile[]; problems: LoadProblem[] } {
  const root = resolveReal(benchmarkDirectory);
  const files: EvalFile[] = [];
  const problems: LoadProblem[] = [];
  const visited = new Set<string>();
  const add = (absolute: string) =>
    files.push({ path: relative(evalDirectory, absolute).split(sep).join("/"), absolute });
  const refuse = (absolute: string, real: string) =>
    problems.push(outsideProblem(absolute, real, root, benchmarkDirectory));
  function visit(directory: string, real: string): void {
    if (visited.has(real)) return;
    visited.add(real);
    for (const child of readdirSync(directory, { withFileTypes: true })) {
      if (NOT_EVAL_FILES.has(child.name)) continue;
      const absolute = join(directory, child.name);
      if (child.isDirectory()) visit(absolute, join(real, child.name));
      else if (child.isFile()) add(absolute);
      else if (child.isSymbolicLink()) {
        const target = resolveReal(absolute);
        if (!isInside(root, target)) {
          refuse(absolute, target);
          continue;
        }
        const stats = statSync(target, { throwIfNoEntry: false });
        if (stats?.isDirectory()) visit(absolute, target);
        else if (stats?.isFile()) add(absolute);
      }
    }
  }
  const real = resolveReal(evalDirectory);
  if (isInside(root, real)) visit(evalDirectory, real);
  else refuse(evalDirectory, real);
  const byPath =
    <T>(key: (item: T) => string) =>
    (a: T, b: T) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0;
  return { files: files.sort(byPath((file) => file.path)), problems: problems.sort(byPath((problem) => problem.file)) };
}

function outsideProblem(absolute: string, real: string, root: string, benchmarkDirectory: string): LoadProblem {
  let link: string | null = null;
  try {
    link = readlinkSync(absolute);
  } catch {
    // Not a link itself: a folder above it is (evals/ linked elsewhere).
  }
  const where =
    link === null
      ? `resolves to ${real} through a symlink`
      : `is a symlink to ${link}${resolve(dirname(absolute), link) === real ? "" : ` (${real})`}`;
  return {
    file: relative(benchmarkDirectory, absolute).split(sep).join("/"),
    code: "OE_LINK_OUTSIDE_BENCHMARK",
    message: `${where}, outside the benchmark folder ${root}; the harness would read it, freeze it into results/ and hand it to the candidate or a judge. Copy what the eval needs into the benchmark folder, or point the link inside it`,
  };
}
