// An eval's cases, whole: each line of its case files with its prompt rendered from prompt.md and its optional
// `cases/<id>/` overlay, the files laid over the workspace for that case only. Both are candidate inputs of that case
// alone, so editing one case re-plans only its slots.
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { renderCasePrompt } from "./case-prompt.ts";
import { loadCaseFiles, type CaseFileProblem, type CaseRecord } from "./case-files.ts";
import type { ConfigImporter } from "./import-config.ts";
import type { EvalCasesSettings } from "./schema.ts";
import { loadWorkspace } from "./workspace.ts";

/** The folder of per-case workspace overlays, `cases/<case-id>/`. */
export const CASE_OVERLAYS_FOLDER = "cases";

export interface EvalCase extends CaseRecord {
  /** prompt.md rendered over this case: what its candidates are sent. */
  prompt: string;
  /** `cases/<id>/` (its path relative to the eval folder): laid over the workspace for this case; null when absent. */
  overlay: { path: string; hash: string } | null;
}

/**
 * The case a slot names, or null for a slot of an eval without cases.
 * @throws when the eval has no such case (a slot planned from another definition)
 */
export function caseOf(
  evaluation: { id: string; cases: EvalCase[] | null },
  caseId: string | undefined,
): EvalCase | null {
  if (caseId === undefined) return null;
  const found = evaluation.cases?.find((item) => item.id === caseId);
  if (!found) throw new Error(`The eval ${evaluation.id} has no case "${caseId}"; plan the run again`);
  return found;
}

/**
 * The eval's cases, or null for an eval without a case file. `template`: prompt.md's text (null when it could not be
 * read: the cases are still checked).
 */
export async function loadEvalCases(
  directory: string,
  settings: EvalCasesSettings | undefined,
  template: string | null,
  importer: ConfigImporter,
): Promise<{ cases: EvalCase[] | null; problems: CaseFileProblem[] }> {
  const overlays = join(directory, CASE_OVERLAYS_FOLDER);
  const read = await loadCaseFiles(directory, settings, importer, join(directory, "eval.ts"));
  if (read.cases === null) {
    const problems = existsSync(overlays)
      ? [
          {
            at: CASE_OVERLAYS_FOLDER,
            message:
              "holds per-case workspace overlays, and the eval has no case file; add cases.jsonl, or remove the folder",
          },
        ]
      : [];
    return { cases: null, problems: [...read.problems, ...problems] };
  }
  const problems = [...read.problems, ...strayOverlays(overlays, read.cases)];
  const cases: EvalCase[] = [];
  for (const item of read.cases) {
    const rendered = template === null ? { prompt: null, problems: [] } : renderCasePrompt(template, item);
    problems.push(
      ...rendered.problems.map((message) => ({
        at: "prompt.md",
        message: `case "${item.id}" (${item.file}:${item.line}): ${message}`,
      })),
    );
    const overlay = await loadOverlay(overlays, item).catch((error: unknown) => {
      problems.push({ at: `${CASE_OVERLAYS_FOLDER}/${item.id}`, message: (error as Error).message });
      return null;
    });
    if (rendered.prompt !== null) cases.push({ ...item, prompt: rendered.prompt, overlay });
  }
  return { cases, problems };
}

async function loadOverlay(overlays: string, item: CaseRecord): Promise<EvalCase["overlay"]> {
  const directory = join(overlays, item.id);
  if (!existsSync(directory)) return null;
  const { hash } = await loadWorkspace(directory);
  return { path: `${CASE_OVERLAYS_FOLDER}/${item.id}`, hash };
}

/** An overlay folder no case is named by: a typo would otherwise lay nothing, silently. */
function strayOverlays(overlays: string, cases: CaseRecord[]): CaseFileProblem[] {
  if (!existsSync(overlays)) return [];
  const ids = new Set(cases.map((item) => item.id));
  return readdirSync(overlays, { withFileTypes: true })
    .filter((entry) => !entry.isDirectory() || !ids.has(entry.name))
    .map((entry) => ({
      at: `${CASE_OVERLAYS_FOLDER}/${entry.name}`,
      message: entry.isDirectory()
        ? `names no case of the eval; name the folder after a case id, or remove it`
        : `holds only folders, one a case (cases/<case-id>/); move or remove this file`,
    }));
}
