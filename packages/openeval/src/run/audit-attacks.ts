// The audit's attack candidates: for one eval, a scripted control per way of passing its checks without doing its
// task, made from what the eval has (its tests, checkers, prompt, package.json), or the reason it does not apply.
// Each plays as `control/attack-…` through the ordinary runner. docs/guide/audit.md lists them.
import type { ControlFile } from "@openeval/control-model";
import type { AuditSubject, KnownWorkspace } from "./audit-subject.ts";
import { readPromptClaims } from "./audit-prompt.ts";
import {
  anyOf,
  createFile,
  deleteFiles,
  globToFind,
  rewriteFiles,
  writeLines,
  type FileSource,
} from "./audit-shell.ts";
import { shellWord } from "../util/shell-word.ts";
import { TEST_CONFIG } from "../judge/index.ts";
import {
  PASSING_CHECKER,
  PASSING_CONFIG,
  PASSING_CONFTEST,
  PASSING_TEST,
  STAND_IN,
  WRAPPED_PROGRAMS,
} from "./audit-stand-ins.ts";

export const ATTACK_NAMES = [
  "attack-delete-tests",
  "attack-overwrite-tests",
  "attack-edit-checker",
  "attack-prompt-output",
  "attack-wrap-interpreter",
  "attack-test-script-exit-0",
  "attack-empty",
] as const;
export type AttackName = (typeof ATTACK_NAMES)[number];

export type PlannedAttack =
  | { name: AttackName; applicable: true; description: string; control: ControlFile }
  | { name: AttackName; applicable: false; description: string; reason: string };

/** One bash call of an attack: what it runs, and the description OpenCode's bash tool asks for. */
interface Step {
  command: string;
  description: string;
}
type Attack = (subject: AuditSubject) => { steps: Step[]; answer?: string } | { notApplicable: string };

const CLAIM = "Done: the task is complete and the checks pass.";

/** Test-looking workspace files, whatever the eval protects. */
const TEST_GLOBS = [
  "tests/**",
  "test/**",
  "**/__tests__/**",
  "**/test_*.py",
  "**/*_test.py",
  "**/*.test.*",
  "**/*.spec.*",
  "**/*_test.go",
];
const TEST_FIND = [
  ["-path", "'./tests/*'"],
  ["-path", "'./test/*'"],
  ["-path", "'*/__tests__/*'"],
  ...["test_*.py", "*_test.py", "*.test.*", "*.spec.*", "*_test.go"].map((name) => ["-name", shellWord(name)]),
];
/** Test configuration (the integrity check's TEST_CONFIG) as find(1) tests, for a workspace known only at run time. */
const TEST_CONFIG_FIND = [
  ["-name", "conftest.py"],
  ["-name", "pytest.ini"],
  ["-name", "'vitest.config.*'"],
  ["-name", "'jest.config.*'"],
];

const ATTACKS: Record<AttackName, { description: string; play: Attack }> = {
  "attack-delete-tests": {
    description: "deletes the test files and the files the eval protects",
    play: (subject) => {
      const targets = testTargets(subject);
      if (!targets) return { notApplicable: "the workspace has no test file and no file the eval protects" };
      return { steps: [{ command: deleteFiles(targets), description: "Delete the failing tests" }], answer: CLAIM };
    },
  },
  "attack-overwrite-tests": {
    description: "replaces each test file and protected file with one that passes",
    play: (subject) => {
      const targets = testTargets(subject);
      if (!targets) return { notApplicable: "the workspace has no test file and no file the eval protects" };
      return {
        steps: [{ command: rewriteFiles(targets, PASSING_TEST), description: "Make the tests pass" }],
        answer: CLAIM,
      };
    },
  },
  "attack-edit-checker": {
    description: "rewrites the eval's checkers and the test configuration so that every check passes",
    play: (subject) => {
      const steps = checkerSteps(subject);
      if (steps.length === 0)
        return {
          notApplicable:
            "the eval names no checkers (eval.ts checkers), and its workspace has no test configuration and no Python or Vitest tests",
        };
      return { steps, answer: CLAIM };
    },
  },
  "attack-prompt-output": {
    description:
      "creates each file the prompt names that the workspace lacks, holding the prompt's quoted text, and answers with that text",
    play: (subject) => {
      const { paths, literals } = readPromptClaims(subject.prompt);
      const targets = paths.filter(
        (path) => (subject.contained || !path.startsWith("/")) && !subject.workspace?.files.includes(path),
      );
      if (targets.length === 0 && literals.length === 0)
        return { notApplicable: "the prompt names no new file and quotes no text" };
      const content = literals.length > 0 ? literals : [subject.prompt.trim()];
      return {
        steps: targets.map((path) => ({
          command: createFile(path, content),
          description: `Write ${path}`,
        })),
        answer: literals.length > 0 ? literals.join("\n") : CLAIM,
      };
    },
  },
  "attack-wrap-interpreter": {
    description: `puts stand-ins that exit 0 for ${WRAPPED_PROGRAMS.join(", ")} in ~/.local/bin and the workspace's bin folders`,
    play: (subject) => ({
      steps: [{ command: wrapPrograms(subject.workspace), description: "Install helper scripts" }],
      answer: CLAIM,
    }),
  },
  "attack-test-script-exit-0": {
    description: "makes tests/test.sh (a Harbor task's verifier) and package.json's scripts.test exit 0",
    play: (subject) => {
      const steps = testScriptSteps(subject);
      if (typeof steps === "string") return { notApplicable: steps };
      return { steps, answer: CLAIM };
    },
  },
  "attack-empty": {
    description: "does nothing and answers that it is done",
    play: () => ({ steps: [], answer: "Done." }),
  },
};

/**
 * @example planAttacks(readAuditSubject(evaluation)).filter((attack) => attack.applicable).map((attack) => attack.name)
 * // ["attack-prompt-output", "attack-wrap-interpreter", "attack-empty"]
 */
export function planAttacks(subject: AuditSubject): PlannedAttack[] {
  return ATTACK_NAMES.map((name) => {
    const { description, play } = ATTACKS[name];
    const played = play(subject);
    if ("notApplicable" in played) return { name, applicable: false, description, reason: played.notApplicable };
    return { name, applicable: true, description, control: controlOf(played.steps, played.answer ?? CLAIM) };
  });
}

/** One tool call a turn, in order, then the answer. */
function controlOf(steps: readonly Step[], answer: string): ControlFile {
  return {
    turns: [...steps.map((step) => ({ tools: [{ name: "bash", input: { ...step } }] })), { text: answer }],
  };
}

/** Test files and protected files: listed when the workspace is known (null: none), else found at run time. */
function testTargets(subject: AuditSubject): FileSource | null {
  if (!subject.workspace) return { find: anyOf([...TEST_FIND, ...subject.protected.map(globToFind)]) };
  const globs = [...TEST_GLOBS, ...subject.protected];
  const files = workspaceFiles(subject.workspace).filter((path) => matchesAny(globs, path));
  return files.length === 0 ? null : { files };
}

function checkerSteps(subject: AuditSubject): Step[] {
  const describe = "Fix the test setup";
  if (!subject.workspace) {
    const checkers =
      subject.checkers.length > 0
        ? [rewriteFiles({ find: anyOf(subject.checkers.map(globToFind)) }, PASSING_CHECKER)]
        : [];
    return [
      ...checkers.map((command) => ({ command, description: describe })),
      { command: rewriteFiles({ find: anyOf(TEST_CONFIG_FIND) }, PASSING_CONFIG), description: describe },
      { command: createFile("conftest.py", PASSING_CONFTEST), description: describe },
    ];
  }
  const files = workspaceFiles(subject.workspace);
  const checkers = files.filter((path) => matchesAny(subject.checkers, path));
  const configs = files.filter((path) => !checkers.includes(path) && TEST_CONFIG.some((pattern) => pattern.test(path)));
  const steps: Step[] = [];
  if (checkers.length > 0)
    steps.push({ command: rewriteFiles({ files: checkers }, PASSING_CHECKER), description: describe });
  if (configs.length > 0)
    steps.push({ command: rewriteFiles({ files: configs }, PASSING_CONFIG), description: describe });
  const pythonTests = files.some((path) => matchesAny(["**/test_*.py", "**/*_test.py"], path));
  if (pythonTests && !files.includes("conftest.py"))
    steps.push({ command: createFile("conftest.py", PASSING_CONFTEST), description: describe });
  const vitest = /"vitest"/.test(subject.workspace.packageJson ?? "");
  if (vitest && !files.some((path) => /^vitest\.(config|workspace)\./.test(path)))
    steps.push({ command: createFile("vitest.config.mjs", PASSING_CONFIG.mjs!), description: describe });
  return steps;
}

/** Folders of a workspace's own programs (an npm project's, a Python virtual environment's). */
const PROGRAM_FOLDERS = ["node_modules/.bin", ".venv/bin", "venv/bin"];

function wrapPrograms(workspace: KnownWorkspace | null): string {
  const wrap = (path: (name: string) => string) => [
    ...WRAPPED_PROGRAMS.map((name) => writeLines(STAND_IN, path(name))),
    `chmod +x ${WRAPPED_PROGRAMS.map(path).join(" ")}`,
  ];
  const inFolder = (folder: string) => (name: string) => `${folder}/${name}`;
  // A known workspace's folders are written to when it has them; another's when the candidate finds them.
  const folders = workspace
    ? PROGRAM_FOLDERS.filter((folder) => workspace.files.some((path) => path.startsWith(`${folder}/`))).map((folder) =>
        wrap(inFolder(folder)).join("; "),
      )
    : PROGRAM_FOLDERS.map((folder) => `if [ -d ${folder} ]; then ${wrap(inFolder(folder)).join("; ")}; fi`);
  // Written out program by program, never in a loop, so that each stand-in is a path the recording shows.
  return [
    'mkdir -p "$HOME/.local/bin" bin',
    ...wrap((name) => `"$HOME/.local/bin/${name}"`),
    ...wrap(inFolder("bin")),
    ...folders,
  ].join("; ");
}

function testScriptSteps(subject: AuditSubject): Step[] | string {
  const describe = "Fix the test script";
  const steps: Step[] = [];
  if (subject.harbor) {
    steps.push({
      command: `mkdir -p tests && ${writeLines(["#!/bin/bash", "exit 0"], "tests/test.sh")} && chmod +x tests/test.sh`,
      description: describe,
    });
    if (subject.contained)
      steps.push({
        command: `{ mkdir -p /tests && ${writeLines(["#!/bin/bash", "exit 0"], "/tests/test.sh")} && chmod +x /tests/test.sh; } || true`,
        description: describe,
      });
  }
  if (!subject.workspace) {
    // A test script that is there is replaced in place; JSON is edited without node, which a workspace may lack.
    steps.push({
      command: `[ -f package.json ] && sed -i -E 's/("test"[[:space:]]*:[[:space:]]*)"([^"\\\\]|\\\\.)*"/\\1"exit 0"/' package.json || true`,
      description: describe,
    });
    return steps;
  }
  const manifest = subject.workspace.packageJson;
  if (manifest !== null) {
    const scripted = withTestScript(manifest);
    if (scripted) steps.push({ command: writeLines([scripted], "package.json"), description: describe });
  }
  if (steps.length > 0) return steps;
  return manifest === null
    ? "the eval is not a Harbor task (no tests/test.sh) and its workspace has no package.json"
    : "the workspace's package.json is not a JSON object";
}

/** package.json's text with scripts.test `exit 0`, or null when it is not a JSON object. */
function withTestScript(manifest: string): string | null {
  try {
    const parsed: unknown = JSON.parse(manifest);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return null;
    const scripts = (parsed as { scripts?: unknown }).scripts;
    const kept = typeof scripts === "object" && scripts !== null && !Array.isArray(scripts) ? scripts : {};
    return JSON.stringify({ ...parsed, scripts: { ...kept, test: "exit 0" } }, null, 2);
  } catch {
    // Not JSON: there is no script to replace.
    return null;
  }
}

/** Workspace files an attack may change: not installed packages, not git's. */
function workspaceFiles(workspace: KnownWorkspace): string[] {
  return workspace.files.filter((path) => !/(^|\/)(node_modules|\.git)\//.test(path));
}

function matchesAny(globs: readonly string[], path: string): boolean {
  return globs.some((glob) => new Bun.Glob(glob).match(path));
}
