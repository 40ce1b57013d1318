// An eval's case files: cases.jsonl (or eval.ts `cases.file`) and regression.cases.jsonl beside it, one case a line.
// Each line is checked for its shape here and, when eval.ts gives schemas, against them in the config worker (a schema
// cannot leave it). Every problem names the file, the 1-based line and the field.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describeZodIssues } from "../util/zod-issues.ts";
import type { ConfigImporter } from "./import-config.ts";
import {
  CaseLineSchema,
  DEFAULT_CASE_FILE,
  REGRESSION_CASE_FILE,
  type CaseLine,
  type EvalCasesSettings,
} from "./schema.ts";

/** The tag every case of regression.cases.jsonl carries. */
export const REGRESSION_TAG = "regression";

/** A case as read from its file, before its prompt is rendered. */
export interface CaseRecord {
  id: string;
  input: Record<string, unknown>;
  /** Absent when the line gives none. */
  expected?: unknown;
  tags: string[];
  /** The case file (relative to the eval folder) and the 1-based line the case is on. */
  file: string;
  line: number;
}

/** A problem of a case file: `at` names the file relative to the eval folder, with `:line` when it is a line's. */
export interface CaseFileProblem {
  at: string;
  message: string;
}

/** The case files an eval reads: its own, then the regression file. */
export function caseFilesOf(settings: EvalCasesSettings | undefined): string[] {
  return [settings?.file ?? DEFAULT_CASE_FILE, REGRESSION_CASE_FILE];
}

/**
 * The eval's cases, in file order (its case file first); null when it has no case file and eval.ts declares no
 * `cases`. `evalTs`: the eval.ts whose case schemas check the lines (when `settings` declares any).
 */
export async function loadCaseFiles(
  directory: string,
  settings: EvalCasesSettings | undefined,
  importer: ConfigImporter,
  evalTs: string,
): Promise<{ cases: CaseRecord[] | null; problems: CaseFileProblem[] }> {
  const [main, regression] = caseFilesOf(settings) as [string, string];
  const has = (name: string) => existsSync(join(directory, name));
  if (!has(main) && !has(regression)) {
    if (settings === undefined) return { cases: null, problems: [] };
    return {
      cases: null,
      problems: [
        {
          at: "eval.ts",
          message: `cases: the case file ${main} does not exist; create it (one JSON object a line), or remove cases`,
        },
      ],
    };
  }
  const problems: CaseFileProblem[] = [];
  if (settings?.file !== undefined && !has(main))
    problems.push({ at: "eval.ts", message: `cases.file: ${main} does not exist; create it or correct the name` });
  const read: CaseRecord[] = [];
  for (const [name, tags] of [
    [main, []],
    [regression, [REGRESSION_TAG]],
  ] as const) {
    if (!has(name)) continue;
    const file = readCaseFile(directory, name, tags);
    read.push(...file.cases);
    problems.push(...file.problems);
  }
  problems.push(...duplicates(read));
  if (settings?.input || settings?.expected) problems.push(...(await checkAgainstSchemas(read, importer, evalTs)));
  return { cases: read, problems };
}

/** One file's cases and the problems of its lines (blank lines are skipped). */
function readCaseFile(
  directory: string,
  name: string,
  addedTags: readonly string[],
): { cases: CaseRecord[]; problems: CaseFileProblem[] } {
  const cases: CaseRecord[] = [];
  const problems: CaseFileProblem[] = [];
  const lines = readFileSync(join(directory, name), "utf8").split(/\r?\n/);
  for (const [index, text] of lines.entries()) {
    if (text.trim() === "") continue;
    const at = `${name}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      problems.push({ at, message: `is not JSON (${(error as Error).message}); write one JSON object a line` });
      continue;
    }
    const parsed = CaseLineSchema.safeParse(value);
    if (!parsed.success) {
      problems.push(...describeZodIssues(parsed.error).map((message) => ({ at, message })));
      continue;
    }
    cases.push(toCaseRecord(parsed.data, name, index + 1, addedTags));
  }
  if (cases.length === 0 && problems.length === 0)
    problems.push({ at: name, message: "holds no case; write one JSON object a line, or remove the file" });
  return { cases, problems };
}

function toCaseRecord(line: CaseLine, file: string, lineNumber: number, addedTags: readonly string[]): CaseRecord {
  const tags = [...new Set([...(line.tags ?? []), ...addedTags])];
  return {
    id: line.id,
    input: line.input,
    ...("expected" in line ? { expected: line.expected } : {}),
    tags,
    file,
    line: lineNumber,
  };
}

/** A second case with an id already used, in the same file or the other one. */
function duplicates(cases: CaseRecord[]): CaseFileProblem[] {
  const first = new Map<string, CaseRecord>();
  const problems: CaseFileProblem[] = [];
  for (const item of cases) {
    const earlier = first.get(item.id);
    if (!earlier) {
      first.set(item.id, item);
      continue;
    }
    problems.push({
      at: `${item.file}:${item.line}`,
      message: `id: "${item.id}" is already the id of the case at ${earlier.file}:${earlier.line}; ids are unique within the eval, give one of them another`,
    });
  }
  return problems;
}

/** Each case's input and expected value against eval.ts's schemas; a valid case takes the values they give. */
async function checkAgainstSchemas(
  cases: CaseRecord[],
  importer: ConfigImporter,
  evalTs: string,
): Promise<CaseFileProblem[]> {
  const checks = await importer.validateCases(
    evalTs,
    cases.map((item) => ({ input: item.input, expected: item.expected })),
  );
  const problems: CaseFileProblem[] = [];
  for (const [index, check] of checks.entries()) {
    const item = cases[index]!;
    if (check.problems.length > 0) {
      problems.push(...check.problems.map((message) => ({ at: `${item.file}:${item.line}`, message })));
      continue;
    }
    if ("input" in check) {
      if (typeof check.input !== "object" || check.input === null || Array.isArray(check.input)) {
        problems.push({
          at: `${item.file}:${item.line}`,
          message: "input: eval.ts's cases.input schema gives a value that is not an object; make it give one",
        });
        continue;
      }
      item.input = check.input as Record<string, unknown>;
      if (check.expected !== undefined) item.expected = check.expected;
    }
  }
  return problems;
}
