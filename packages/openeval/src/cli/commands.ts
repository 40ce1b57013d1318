// Every `openeval` command: its usage, summary and options, each option with the line `--help` shows. Kept apart
// from the commands' actions (one file per command, defineCommand below; main.ts imports one only when it runs) so
// that `--help` and `--version` load no stage: loading them all takes seconds on a busy machine.
import type { Action, CommandSpec, Options } from "./command.ts";

const BENCHMARK = {
  benchmark: {
    type: "string",
    default: ".",
    value: "dir",
    description: "The benchmark folder: benchmark.ts, evals/ and results/",
  },
} as const satisfies Options;

function json(description: string) {
  return { json: { type: "boolean", default: false, description } } as const satisfies Options;
}

const MODEL = {
  model: {
    type: "string",
    multiple: true,
    value: "provider/model",
    description: "An OpenCode model id, provider/model[#variant]; commas separate several",
  },
} as const satisfies Options;

/** Which slots run and plan cover, and under what limits. */
const SCOPE = {
  model: {
    ...MODEL.model,
    description: "Add a model to benchmark.ts's and the run's (provider/model[#variant]; commas separate several)",
  },
  "only-model": {
    type: "string",
    multiple: true,
    value: "provider/model",
    description: "Work on these models' slots only; the others wait, not scored against you",
  },
  variant: {
    type: "string",
    multiple: true,
    value: "name",
    description:
      "Run current and only these variants, which then count in the verdict too (default: every variant, only current counts)",
  },
  "only-variant": {
    type: "string",
    multiple: true,
    value: "name",
    description: "Work on these variants' slots only (current or a variant's name)",
  },
  "only-eval": { type: "string", multiple: true, value: "id", description: "Work on these evals only" },
  "only-case": {
    type: "string",
    multiple: true,
    value: "id",
    description: "Work on these cases only (of evals with a case file); the run is then incomplete",
  },
  "only-category": {
    type: "string",
    multiple: true,
    value: "name",
    description: "Only evals with a criterion in this category, scored by those criteria",
  },
  "only-repetition": {
    type: "string",
    multiple: true,
    value: "n",
    description: "Work on these repetitions only (whole numbers from 1)",
  },
  fresh: {
    type: "boolean",
    default: false,
    description: "Ignore recorded work: run and judge everything in scope again",
  },
  offline: {
    type: "boolean",
    default: false,
    description: "Call no model: candidates and LLM judges wait, code judges run",
  },
  "max-cost": {
    type: "string",
    value: "usd",
    description: "Start no work that could take the spend past this many USD",
  },
  "final-only": {
    type: "boolean",
    default: false,
    description: "No earlyStop checks: grade each candidate once it has finished",
  },
  isolation: {
    type: "string",
    value: "container|process",
    description: "Where candidates run (default: container for real models, process for controls)",
  },
} as const satisfies Options;

/** What a command that runs work and ends with a verdict honours: run, retry, rejudge. */
const EXECUTION = {
  concurrency: {
    type: "string",
    value: "n",
    description: "How many work items run at once (default: benchmark.ts concurrency, else what the machine can hold)",
  },
  ...json("Print the events and the summary to stdout as JSON Lines (one JSON object per line), no progress"),
  gate: {
    type: "string",
    multiple: true,
    value: "ids",
    description:
      "Decide the verdict by these contributors only (code-judge, llm-judge, gates, regression, integrity, invariants), not benchmark.ts's",
  },
  only: {
    type: "string",
    multiple: true,
    value: "ids",
    description: "Of the verdict's contributors otherwise chosen, keep only these",
  },
  "no-llm-judge": { type: "boolean", default: false, description: "Leave llm-judge out of the verdict" },
  "no-integrity": {
    type: "boolean",
    default: false,
    description: "Leave integrity (findings of candidates gaming the checks) out of the verdict",
  },
  "no-invariants": {
    type: "boolean",
    default: false,
    description: "Leave invariants (benchmark.ts's run-level checks) out of the verdict",
  },
  junit: { type: "string", value: "file", description: "Write a JUnit XML report of the run to this file" },
  summary: { type: "string", value: "file", description: "Write a Markdown summary of the run to this file" },
} as const satisfies Options;

const RUN_DIRECTORY = {
  type: "string",
  value: "dir",
  description: "The run directory to work in (default: the latest run)",
} as const;
const NEW_RUN = {
  type: "boolean",
  default: false,
  description: "Start a new run directory instead of resuming the latest",
} as const;

export const COMMANDS = {
  run: {
    usage:
      "run [--benchmark <dir>] [--run <dir> | --new] [--model <provider/model>]... [--offline] [--max-cost <usd>] [--final-only] [--isolation container|process] [--json]",
    summary:
      "Run every eval × model × repetition as an OpenCode session, grade it, and report scores. Resumes the latest run unless --new. " +
      "--model adds models to benchmark.ts's (and the run's); --only-model scopes execution to some. --final-only grades finished recordings only (no earlyStop checks). " +
      "--isolation: where candidates run (default container for real models, process for controls).",
    options: {
      ...BENCHMARK,
      run: { ...RUN_DIRECTORY, description: "Resume this run directory (default: the latest run)" },
      new: NEW_RUN,
      ...SCOPE,
      ...EXECUTION,
    },
  },
  plan: {
    usage: "plan [--benchmark <dir>] [--run <dir> | --new] [--json] [scope flags]",
    summary:
      "Show what `openeval run` would do for every slot (candidate, judge, reuse, failed, deferred) and why, with a cost estimate.",
    options: {
      ...BENCHMARK,
      ...SCOPE,
      run: { ...RUN_DIRECTORY, description: "Plan against this run directory (default: the latest run)" },
      new: { ...NEW_RUN, description: "Plan a new run: everything is new" },
      ...json("Print the plan as one JSON object"),
    },
  },
  retry: {
    usage: "retry <eval-run>... [--benchmark <dir>] [--run <dir>]",
    summary:
      "Execute the candidates of the named failed eval runs again (ids as `openeval plan` shows them, or as the viewer shortens them: a prefix no other eval run shares).",
    options: {
      ...BENCHMARK,
      run: { ...RUN_DIRECTORY, description: "The run holding the eval runs (default: the latest run)" },
      ...EXECUTION,
    },
  },
  rejudge: {
    usage: "rejudge [<eval-run>...] [--repeat <n>] [--benchmark <dir>] [--run <dir>]",
    summary:
      "Grade the named eval runs again, or, without names, every recording whose judging failed. The recordings are reused. Ids as for retry: in full, or a prefix no other eval run shares. " +
      "--repeat n keeps each recording's rubric judgments and has every judge model grade it n more times (without names: every judged recording), so that judge agreement is measured even with one judge model.",
    options: {
      ...BENCHMARK,
      run: { ...RUN_DIRECTORY, description: "The run holding the eval runs (default: the latest run)" },
      repeat: {
        type: "string",
        value: "n",
        description: "Grade each recording n more times with every judge model, keeping its earlier judgments",
      },
      ...EXECUTION,
    },
  },
  "add-models": {
    usage:
      "add-models <run-dir | run-id> --model <provider/model>... [scope flags as for run] [--json] [--benchmark <dir>]",
    summary:
      "Extend a recorded run with more models: their slots are planned and run, the run's recorded work is reused. Refused while a runner holds the run.",
    options: {
      ...BENCHMARK,
      ...SCOPE,
      model: { ...MODEL.model, description: "A model to add (provider/model[#variant]; commas separate several)" },
      concurrency: EXECUTION.concurrency,
      json: EXECUTION.json,
    },
  },
  "remove-models": {
    usage: "remove-models <run-dir | run-id> --model <provider/model>... [--json] [--benchmark <dir>]",
    summary:
      "Retire models from a run's scores (leaderboard, verdict, report, viewer); their recorded work stays on disk and add-models brings it back.",
    options: {
      ...BENCHMARK,
      model: { ...MODEL.model, description: "A model to retire (provider/model[#variant]; commas separate several)" },
      ...json("Print the result as one JSON object"),
    },
  },
  "merge-runs": {
    usage: "merge-runs <to: run-dir | run-id> <from: run-dir | run-id> [--json] [--benchmark <dir>]",
    summary:
      "Copy the finalized eval and judge runs of <from> into <to> (same benchmark); slots <to> already holds keep its work and are listed. <from> is left as it was.",
    options: { ...BENCHMARK, ...json("Print the result as one JSON object") },
  },
  snapshot: {
    usage: "snapshot <run-dir | run-id> <name> [--json] [--benchmark <dir>]",
    summary:
      "Freeze a run's active scores (slots, eval and judge runs, scores, verdict) with their hash to <run>/maintenance/snapshots/<name>.json; never overwrites one.",
    options: { ...BENCHMARK, ...json("Print the result as one JSON object") },
  },
  baseline: {
    usage: "baseline set <run-dir> [--variant <name>] [--accept-failing] | baseline show [--benchmark <dir>]",
    summary:
      "Promote one arm of a complete run (current, or the --variant named) to baseline.json (fingerprints and scores only), or show the current baseline.",
    options: {
      ...BENCHMARK,
      variant: { type: "string", value: "name", description: "set: the arm to promote (default: current)" },
      "accept-failing": {
        type: "boolean",
        default: false,
        description: "set: promote the arm although its verdict fails",
      },
      ...json("show: print the baseline as JSON"),
    },
  },
  review: {
    usage:
      'review <run-dir | run-id> <eval-run> --criterion <id> --score <1|0|0.5|unresolved> --reason "…" [--by <name>] [--save-regression] [--json] [--benchmark <dir>]',
    summary:
      "Record a person's score for one criterion of an eval run in place of the judge's, with why; the judge's score stays beside it. " +
      "Reviews are append-only and sealed (`verify` checks them); the latest of an eval run's criterion counts, and a rejudge keeps it. " +
      "Eval run ids as for retry: in full, or a prefix no other eval run shares.",
    options: {
      ...BENCHMARK,
      criterion: { type: "string", value: "id", description: "The criterion to score, as the judgment names it" },
      score: {
        type: "string",
        value: "1|0|0.5|unresolved",
        description: "The score: 1 pass, 0 fail, 0.5 half credit, unresolved (counted unscored)",
      },
      reason: {
        type: "string",
        value: "text",
        description: "Why the judge's score is wrong (required; kept with the review)",
      },
      by: {
        type: "string",
        value: "name",
        description: "Who reviews (default: git config user.name; the email is git config user.email)",
      },
      "save-regression": {
        type: "boolean",
        default: false,
        description:
          "Also save the reviewed slot's case (its input and expected value) as a regression case of its eval, in regression.cases.jsonl",
      },
      ...json("Print the review and every review of the eval run as one JSON object"),
    },
  },
  report: {
    usage:
      "report [<run-dir | run-id>] [--json | --markdown [--against-baseline]] [--cases] [--junit <file>] [--summary <file>] [--benchmark <dir>] | report --compare <run-a | baseline> <run-b> [--model <a>[,<b>]] [--json] [--benchmark <dir>]",
    summary:
      "Print a recorded run's summary (default: the latest run) as `run` prints it, running nothing; exits as `run` would (0 pass, 1 fail, 3 incomplete). " +
      "--against-baseline adds to the Markdown each model's and eval's change against baseline.json. " +
      "--compare: two runs (or baseline.json with a run, or two models or variants — --model 'p/m,p/m [terse]'): scores, paired difference with 95% CI, regressions and improvements.",
    options: {
      // No default: named, it is also the benchmark a run's summary is read with (a run folder copied from CI records a
      // folder that may not exist here); else that is the folder the run records, as in the viewer.
      benchmark: {
        type: "string",
        value: "dir",
        description:
          "Whose results/ the run is in (default .); named, also the benchmark its summary is read with (default: the folder the run records)",
      },
      compare: {
        type: "boolean",
        default: false,
        description: "Compare run a (or `baseline`) with run b: what changed, b − a",
      },
      model: {
        type: "string",
        value: "a[,b]",
        description: "With --compare: the model of each side, e.g. 'p/m,p/m [terse]' to compare two models or variants",
      },
      ...json("Print the summary (or the comparison) as JSON"),
      markdown: {
        type: "boolean",
        default: false,
        description: "Print the run's Markdown summary instead of the table",
      },
      "against-baseline": {
        type: "boolean",
        default: false,
        description:
          "With --markdown or --summary: add each model's and eval's change against baseline.json (a pull request's comment)",
      },
      junit: { type: "string", value: "file", description: "Write a JUnit XML report of the run to this file" },
      summary: { type: "string", value: "file", description: "Write a Markdown summary of the run to this file" },
      cases: {
        type: "boolean",
        default: false,
        description: "Also print each case's score per candidate (evals with cases; --json always has them)",
      },
    },
  },
  calibrate: {
    usage:
      "calibrate [--benchmark <dir>] [--run <dir> | --new] [--json] | calibrate --against-reviews [--run <dir>] [--json]",
    summary:
      "Run each eval's controls: positive controls must score 1 on every criterion, negative ones below 1. Exits 1 naming any suspect judge. " +
      "--against-reviews runs nothing: per criterion and judge, Cohen's κ with the people who reviewed the run (`openeval review`), true-positive and true-negative rates and counts; exits 1 when a judge's κ is below judge.minAgreement.",
    options: {
      ...BENCHMARK,
      run: {
        ...RUN_DIRECTORY,
        description: "Record the controls' work in this run directory, or read its reviews (default: the latest run)",
      },
      new: NEW_RUN,
      "against-reviews": {
        type: "boolean",
        default: false,
        description: "Measure the judges against the run's reviews (score ≥ 0.5 passes; unresolved pairs are left out)",
      },
      ...json("Print the calibration report as one JSON object, no progress"),
    },
  },
  audit: {
    usage: "audit [--benchmark <dir>] [--eval <id>]... [--run <dir> | --new] [--json]",
    summary:
      "Play built-in attacks against each eval as scripted controls, and name each eval one passes as well as its reference (a positive control or the oracle). " +
      "The attacks delete or overwrite the tests, edit the checker, write the output the prompt states, wrap the interpreter, make the test script exit 0, and answer nothing. " +
      "Exits 1 naming each hackable eval, 3 when a control could not be judged.",
    options: {
      ...BENCHMARK,
      eval: {
        type: "string",
        multiple: true,
        value: "id",
        description: "Audit these evals only (default: every eval)",
      },
      run: {
        ...RUN_DIRECTORY,
        description: "Record the attacks' and references' work in this run directory (default: the latest run)",
      },
      new: NEW_RUN,
      ...json("Print the audit report as one JSON object, no progress"),
    },
  },
  engines: {
    usage: "engines [--benchmark <dir>] [--json]",
    summary:
      "List the container engines candidates and verifications are placed on (benchmark.ts candidate.container.engines, OPENEVAL_ENGINES, else the one engine): health, capacity, version, and which of the benchmark's images each holds. Exits 1 when one does not answer.",
    options: { ...BENCHMARK, ...json("Print the engines as one JSON object") },
  },
  image: {
    usage:
      "image [--verification] [--candidate] [--environments] [--engine docker|podman] [--force] [--json] [--benchmark <dir>]",
    summary:
      "Build the sandbox images and record their immutable ids: --verification (images/verification/: Bun, Python, git, Chromium + Playwright), " +
      "--candidate (images/candidate/: the pinned OpenCode and Bun from this npm install, git, bash, Python), " +
      "--environments (each eval's environment/, with the harness layer over it; logs in results/environment-builds/). No flag: all three. " +
      "Builds on the benchmark's first engine (candidate.container.engines or host, else DOCKER_HOST); a run carries the images to the other engines of a pool. --engine or benchmark.ts judge.verification.engine picks docker or podman.",
    options: {
      ...BENCHMARK,
      verification: { type: "boolean", default: false, description: "Build the verification image" },
      candidate: { type: "boolean", default: false, description: "Build the candidate image" },
      environments: {
        type: "boolean",
        default: false,
        description: "Build the environment image of every eval with environment/",
      },
      engine: {
        type: "string",
        value: "docker|podman",
        description: "The container engine (default: benchmark.ts judge.verification.engine, else docker)",
      },
      force: {
        type: "boolean",
        default: false,
        description: "Build again even if an image with the same inputs exists",
      },
      ...json("Print the images' ids as one JSON object"),
    },
  },
  view: {
    usage: "view [--benchmark <dir>] [--run <dir>] [--port <port>] [--read-only]",
    summary:
      "Browse runs in a web app on 127.0.0.1: leaderboard, eval × model matrix, transcripts, judgments. Updates live while a run is in progress. " +
      "A judgment's criteria can be reviewed from its page (as `openeval review` does) unless --read-only.",
    options: {
      ...BENCHMARK,
      run: { ...RUN_DIRECTORY, description: "Open this run directory first (default: the latest run)" },
      port: {
        type: "string",
        default: "4173",
        value: "port",
        description: "The port on 127.0.0.1; 0 picks a free one",
      },
      "read-only": {
        type: "boolean",
        default: false,
        description:
          "Change nothing from the page: no review form, and every request that would change results is refused",
      },
    },
  },
  export: {
    usage:
      "export [<run-dir | run-id>] --output <dir> [--format viewer|atif] [--allow-artifact <path>]… [--reviewer-emails] [--benchmark <dir>]",
    summary:
      "Write a static copy of a run's viewer (credentials and host paths scrubbed) that opens from disk without a server. Default: the latest run. " +
      "Workspace file contents are left out unless --allow-artifact names the file or a folder holding it; reviewers' emails unless --reviewer-emails. " +
      "--format atif writes each eval run's trajectory in Harbor's ATIF instead (docs/guide/atif.md).",
    options: {
      ...BENCHMARK,
      format: {
        type: "string",
        value: "viewer|atif",
        default: "viewer",
        description: "viewer: the static viewer; atif: one Harbor trajectory (ATIF v1.4) folder per eval run",
      },
      output: {
        type: "string",
        value: "dir",
        description: "The empty or new folder to write the export to (required)",
      },
      "allow-artifact": {
        type: "string",
        multiple: true,
        value: "path",
        description: "Include the contents of this workspace file, or of every file under this folder",
      },
      "reviewer-emails": {
        type: "boolean",
        default: false,
        description: "Keep the emails of the people who reviewed scores (default: their names only)",
      },
    },
  },
  ci: {
    usage: "ci comment [--body-file <file>] [--pr <number>] [--name <name>] [--json]",
    summary:
      "Post the body (a file, or stdin) as the pull request's one openeval comment, or update the one an earlier push posted (found by a hidden marker). " +
      "Reads GITHUB_REPOSITORY, GITHUB_TOKEN, GITHUB_API_URL (default https://api.github.com) and the pull request from GITHUB_EVENT_PATH's event, as GitHub Actions sets them.",
    options: {
      "body-file": {
        type: "string",
        value: "file",
        description:
          "The comment's Markdown, e.g. from `openeval report --markdown --against-baseline` (default: stdin)",
      },
      pr: {
        type: "string",
        value: "number",
        description: "The pull request to comment on (default: the one GITHUB_EVENT_PATH's event names)",
      },
      name: {
        type: "string",
        value: "name",
        description: "Keep a separate comment per name (several benchmarks in one pull request); default one comment",
      },
      ...json("Print what was posted (created or updated, its id and URL) as one JSON object"),
    },
  },
  init: {
    usage: "init [<dir>] | init [<dir>] --eval <id> [--rubric]",
    summary:
      "Write a working benchmark to <dir> (default .), or add one eval to a benchmark with --eval. " +
      "The benchmark: benchmark.ts, a code-judged eval and a rubric eval graded by control/judge, each with positive and negative controls, a .gitignore for results/ and a README of next steps; it validates, runs offline and passes calibrate as written. " +
      "--eval writes evals/<id>/: prompt.md, judge.ts (judge.md with --rubric), workspace/ and controls/. Overwrites nothing: refuses, naming what exists.",
    options: {
      eval: {
        type: "string",
        value: "id",
        description: "Add one eval, evals/<id>/, to the benchmark in <dir> instead of writing a benchmark",
      },
      rubric: {
        type: "boolean",
        default: false,
        description: "With --eval: grade the eval by a judge.md rubric (an LLM judge) instead of a judge.ts",
      },
    },
  },
  validate: {
    usage: "validate [--benchmark <dir>]",
    summary: "Load benchmark.ts and every eval, check them, and list what was found. Runs no model and no judge code.",
    options: { ...BENCHMARK },
  },
  verify: {
    usage: "verify [<run-dir | run-id>] [--benchmark <dir>] [--json]",
    summary:
      "Check every record and file of a run against its hashes (rows, judge-run files, recordings). Exits 1 naming what changed. Default: the latest run.",
    options: { ...BENCHMARK, ...json("Print the result as one JSON object") },
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

/** The action of command `N`, with its flags typed from its options. */
export type ActionOf<N extends CommandName> = Action<(typeof COMMANDS)[N]["options"]>;

/**
 * A command's action, bound by its name to its entry above, whose options type its flags.
 * @example export const verifyCommand = defineCommand("verify", { async run(flags, positionals) { … return EXIT.pass; } });
 */
export function defineCommand<N extends CommandName>(_name: N, command: { run: ActionOf<N> }): { run: ActionOf<N> } {
  return command;
}
