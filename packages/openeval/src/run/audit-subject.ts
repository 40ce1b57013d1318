// What the audit's attacks may know of an eval before it runs: its prompt, what it protects and names as checkers,
// whether it is a Harbor task in its own container, and its starting workspace's files when a workspace/ folder gives
// them (a repository checkout or an environment image is known only once a candidate starts in it).
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { EvalDefinition } from "../load/index.ts";
import { walkTree } from "../util/tree.ts";

export interface AuditSubject {
  evalId: string;
  /** What candidates are sent: prompt.md, or for an eval with cases every case's rendered prompt, one after another. */
  prompt: string;
  /** Workspace globs the eval protects (eval.ts `protected`; a Harbor task's tests/** and solution/**). */
  protected: readonly string[];
  /** Workspace globs of the files its verification executes (eval.ts `checkers`). */
  checkers: readonly string[];
  /** A Harbor task: graded by its tests/test.sh. */
  harbor: boolean;
  /** Its candidates run in a container of its own image: absolute paths there are the container's, not this machine's. */
  contained: boolean;
  /** The starting workspace; null when only a running candidate sees it (a repository checkout, an image). */
  workspace: KnownWorkspace | null;
}

export interface KnownWorkspace {
  /** Every file and symlink, workspace-relative, sorted. */
  files: readonly string[];
  /** package.json's text at the workspace's root, when it has one. */
  packageJson: string | null;
}

export function readAuditSubject(evaluation: EvalDefinition): AuditSubject {
  return {
    evalId: evaluation.id,
    // A case eval's prompt.md is a template: its claims are those its cases' prompts make.
    prompt: evaluation.cases
      ? evaluation.cases.map((item) => item.prompt.trimEnd()).join("\n\n")
      : evaluation.prompt.text,
    protected: evaluation.integrity.protected,
    checkers: evaluation.integrity.checkers,
    harbor: evaluation.harbor !== null,
    contained: evaluation.environment !== null,
    workspace: knownWorkspace(evaluation),
  };
}

function knownWorkspace(evaluation: EvalDefinition): KnownWorkspace | null {
  if (evaluation.environment !== null || evaluation.workspace.git !== null) return null;
  const directory = evaluation.workspace.directory;
  if (directory === null) return { files: [], packageJson: null };
  const packageJson = join(directory, "package.json");
  return {
    files: walkTree(directory, new Set([".git"])).map((entry) => entry.path),
    packageJson: existsSync(packageJson) ? readFileSync(packageJson, "utf8") : null,
  };
}
