// A task's own verifier (a Harbor task's tests/, docs/guide/harbor-tasks.md): `bash /tests/test.sh` in a fresh
// container of the eval's environment image over the final workspace, no network, under the verifier's time limit;
// its reward is what it writes to /logs/verifier/reward.txt (criterion `reward`) or reward.json (one criterion per
// key). A verifier that cannot start, runs out of time or writes no reward is an infrastructure problem, never a 0;
// a reward that is not a number in [0, 1] is the verifier's error.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import {
  BoundedBuffer,
  type EngineOptions,
  type Sandbox,
  type SandboxUser,
  type TarEntry,
} from "../../sandbox/index.ts";
import { HARBOR_REWARD } from "../../load/index.ts";
import { CRITERION_ID } from "../../util/criterion-id.ts";
import { sha256 } from "../../util/hash.ts";
import { createScratchDir, removeScratchDir } from "../../util/scratch-dir.ts";
import type { ParsedVerificationLimits, VerificationResult } from "../../recording/index.ts";
import { keepReceipt } from "./run-verification.ts";
import type { VerificationEnvironment } from "../schema.ts";
import { workspaceEntries, withOwner, type SnapshotReader } from "./snapshot-archive.ts";
import { openVerificationEngine, verificationSpec, withVerificationErrors } from "./verification-sandbox.ts";

const ROOT: SandboxUser = { uid: 0, gid: 0 };
const COMMAND = ["bash", "/tests/test.sh"];
const REWARD_FILES = ["reward.txt", "reward.json"] as const;
/** A reward file is a number or a small JSON object: anything larger is not one. */
const MAX_REWARD_BYTES = 64 * 1024;

export interface TaskVerifierOptions {
  environment: VerificationEnvironment;
  evidence: SnapshotReader;
  /** The files of the task's tests/ folder, relative to it. */
  tests: TarEntry[];
  timeoutMs: number;
  env: Record<string, string>;
  limits: ParsedVerificationLimits;
  judgeRun: string;
  /** The judge run's `verification/` folder: this verifier keeps its output in `<directory>/<id>/`. */
  directory: string;
  engine?: EngineOptions;
}

export type TaskVerifierOutcome =
  | { kind: "rewards"; rewards: Record<string, number>; id: string }
  /** The verifier's reward is not one (a value outside [0, 1], not a number, a bad key): a judging error. */
  | { kind: "invalid"; problem: string; id: string }
  /** The verifier could not give a reward (did not start, timed out, wrote none): an infrastructure error. */
  | { kind: "infrastructure"; problem: string; id: string };

/**
 * @example
 * const outcome = await runTaskVerifier({ environment, evidence, tests, timeoutMs: 120_000, env: {}, limits, judgeRun, directory });
 * if (outcome.kind === "rewards") console.log(outcome.rewards.reward);
 */
export async function runTaskVerifier(options: TaskVerifierOptions): Promise<TaskVerifierOutcome> {
  const id = `v_${randomBytes(6).toString("hex")}`;
  const startedAt = Date.now();
  const engine = await openVerificationEngine(options.engine);
  const workspace = await workspaceEntries(options.evidence, "final");
  const sandbox = await withVerificationErrors(() =>
    engine.create({
      ...verificationSpec({
        imageId: options.environment.image,
        limits: options.limits,
        timeoutMs: options.timeoutMs,
        id,
        judgeRun: options.judgeRun,
        environment: options.environment,
      }),
      folders: [],
    }),
  );
  const stdout = new BoundedBuffer(options.limits.logBytes);
  const stderr = new BoundedBuffer(options.limits.logBytes);
  let outcome: TaskVerifierOutcome;
  let ran: { exitCode: number | null; elapsedMs: number; timedOut: boolean } = {
    exitCode: null,
    elapsedMs: 0,
    timedOut: false,
  };
  let rewardFile: { name: string; text: string } | null = null;
  try {
    await sandbox.copyIn(options.environment.workdir, withOwner(workspace, ROOT));
    await sandbox.copyIn("/", [
      { type: "directory", path: "tests", mode: 0o755, ...ROOT },
      ...withOwner(
        options.tests.map((entry) => ({ ...entry, path: `tests/${entry.path}` })),
        ROOT,
      ),
      { type: "directory", path: "logs", mode: 0o755, ...ROOT },
      { type: "directory", path: "logs/verifier", mode: 0o777, ...ROOT },
    ]);
    ran = await sandbox.run(COMMAND, {
      cwd: options.environment.workdir,
      env: options.env,
      user: ROOT,
      deadline: startedAt + options.timeoutMs,
      stdout,
      stderr,
    });
    if (ran.timedOut)
      outcome = {
        kind: "infrastructure",
        problem: `the verifier (tests/test.sh) did not finish within its ${Math.round(options.timeoutMs / 1000)} s timeout`,
        id,
      };
    else {
      rewardFile = await readRewardFile(sandbox);
      outcome = rewardFile
        ? rewardsOf(rewardFile, id)
        : {
            kind: "infrastructure",
            problem: `the verifier (tests/test.sh) wrote neither /logs/verifier/reward.txt nor reward.json (exit code ${ran.exitCode}${lastLine(stderr.text() || stdout.text())}); it runs with no network, so a verifier that installs its tools or fetches anything cannot run here`,
            id,
          };
    }
  } finally {
    await sandbox.remove().catch(() => {});
  }
  // Kept as a verification receipt, so that the viewer shows it as any other: the reward file is its artifact.
  const reward = rewardFile && {
    path: `logs/verifier/${rewardFile.name}`,
    data: new TextEncoder().encode(rewardFile.text),
  };
  const result: VerificationResult = {
    id,
    state: ran.timedOut ? "timed_out" : "completed",
    exitCode: ran.timedOut ? null : ran.exitCode,
    commands: [{ argv: COMMAND, exitCode: ran.exitCode, elapsedMs: ran.elapsedMs }],
    stdout: stdout.text(),
    stderr: stderr.text(),
    logsTruncated: stdout.truncated || stderr.truncated,
    artifacts: reward ? [{ path: reward.path, bytes: reward.data.length, sha256: sha256(reward.data) }] : [],
    missingArtifacts: reward ? [] : REWARD_FILES.map((name) => `logs/verifier/${name}`),
    refusedArtifacts: [],
  };
  await keepReceipt(
    join(options.directory, id),
    {
      format: "openeval.verification-receipt",
      version: 1,
      result,
      imageId: options.environment.image,
      request: { revision: "final", image: "environment", timeoutMs: options.timeoutMs, commands: [COMMAND] },
      limits: options.limits,
      startedAt: new Date(startedAt).toISOString(),
      elapsedMs: Date.now() - startedAt,
    },
    reward ? [reward] : [],
  );
  return outcome;
}

async function readRewardFile(sandbox: Sandbox): Promise<{ name: string; text: string } | null> {
  const scratch = await createScratchDir("reward");
  try {
    for (const name of REWARD_FILES) {
      const target = join(scratch, name);
      const copied = await sandbox.copyOut(`/logs/verifier/${name}`, target, { maxBytes: MAX_REWARD_BYTES });
      if (copied.kind === "missing") continue;
      if (copied.kind !== "copied") return { name, text: "" };
      return { name, text: await Bun.file(target).text() };
    }
    return null;
  } finally {
    await removeScratchDir(scratch);
  }
}

/** reward.txt: one number, criterion `reward`; reward.json: an object of criterion → number. */
export function rewardsOf(file: { name: string; text: string }, id: string): TaskVerifierOutcome {
  const invalid = (problem: string): TaskVerifierOutcome => ({
    kind: "invalid",
    problem: `the verifier's /logs/verifier/${file.name} ${problem}`,
    id,
  });
  let entries: [string, unknown][];
  if (file.name === "reward.txt") {
    const text = file.text.trim();
    if (text === "" || Number.isNaN(Number(text))) return invalid(`holds "${text.slice(0, 80)}", not a number`);
    entries = [[HARBOR_REWARD, Number(text)]];
  } else {
    let parsed: unknown;
    try {
      parsed = JSON.parse(file.text);
    } catch {
      return invalid("is not valid JSON");
    }
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed) || Object.keys(parsed).length === 0)
      return invalid("is not an object of criterion → number");
    entries = Object.entries(parsed);
  }
  const rewards: Record<string, number> = {};
  for (const [key, value] of entries) {
    if (!CRITERION_ID.test(key))
      return invalid(
        `names "${key}", which is not a criterion id (a lowercase letter, then lowercase letters, digits and _)`,
      );
    if (typeof value !== "number" || !Number.isFinite(value))
      return invalid(`gives "${key}" ${JSON.stringify(value)}, not a number`);
    if (value < 0 || value > 1) return invalid(`gives "${key}" ${value}, outside [0, 1]`);
    rewards[key] = value;
  }
  return { kind: "rewards", rewards, id };
}

function lastLine(text: string): string {
  const line = text.trim().split("\n").at(-1)?.trim();
  return line ? `; last output: ${line.slice(0, 200)}` : "";
}
