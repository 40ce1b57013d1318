// Test fixtures: temporary folders written from a path → content map, removed after the test file.
import { mkdtemp, mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterAll } from "vitest";

const created: string[] = [];
afterAll(async () => {
  await Promise.all(created.map((directory) => rm(directory, { recursive: true, force: true })));
});

export async function makeTempDir(prefix = "openeval-test-"): Promise<string> {
  const directory = await mkdtemp(join(tmpdir(), prefix));
  created.push(directory);
  return directory;
}

/** Writes `files` (relative path → text; `{ symlink: target }` for a link) under a new temp folder. */
export async function writeTree(files: Record<string, string | { symlink: string }>, root?: string): Promise<string> {
  const directory = root ?? (await makeTempDir());
  for (const [path, content] of Object.entries(files)) {
    const target = join(directory, path);
    await mkdir(dirname(target), { recursive: true });
    if (typeof content === "string") await writeFile(target, content);
    else await symlink(content.symlink, target);
  }
  return directory;
}

/** A minimal valid benchmark (one code-judged eval) that tests override file by file. */
export function minimalBenchmark(
  overrides: Record<string, string | { symlink: string }> = {},
): Record<string, string | { symlink: string }> {
  return {
    "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1 };\n`,
    "evals/answer/prompt.md": "Reply with exactly APPLE.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { correct: response.text === "APPLE" } });\n`,
    ...overrides,
  };
}

/**
 * A benchmark as a user keeps it in their own repository: one hybrid eval whose judge.ts imports values from
 * `openeval` and `openeval/scorers`, graded by the scripted judge, run by the positive control (which passes).
 */
export function userBenchmark(): Record<string, string> {
  return {
    "benchmark.ts": `import type { Benchmark } from "openeval";\n\nexport default { models: ["control/positive"], repetitions: 1, judge: { model: "control/judge" } } satisfies Benchmark;\n`,
    "evals/answer/prompt.md": "Reply with exactly APPLE.\n",
    "evals/answer/judge.ts": `import { isScored, type JudgeContext } from "openeval";\nimport { exactMatch } from "openeval/scorers";\n\nexport const criteria = ["exact"];\nexport default (ctx: JudgeContext) => ({ scores: { exact: isScored(1) ? exactMatch(ctx, "APPLE") : false } });\n`,
    "evals/answer/judge.md":
      "## Criterion: brief — Answers briefly\nPass when the reply is the requested word alone.\n",
    "evals/answer/controls/positive.json": JSON.stringify({
      turns: [{ text: "APPLE" }],
      verdict: { brief: { value: true, reason: "The reply is APPLE alone." } },
    }),
  };
}

/** A stand-in for $HOME in a temp folder (never the real one): OpenCode's auth.json holding `key`, and files a link may reach. */
export async function fakeHome(key: string): Promise<string> {
  return writeTree({
    ".local/share/opencode/auth.json": JSON.stringify({ anthropic: { type: "api", key } }),
    "notes.txt": `key ${key}\n`,
    "judge.ts": `export default () => ({ scores: { ok: "${key}".length > 0 } });\n`,
    "helper.ts": `export const key = "${key}";\n`,
    "data.json": JSON.stringify({ key }),
  });
}

/** Evals whose workspace (answer), prompt.md (prompt), judge.ts (judge) and REFERENCE_FIX.md (reference) link into `home`. */
export function linkedOutside(home: string): Record<string, string | { symlink: string }> {
  const judge = "export default () => ({ scores: { ok: true } });\n";
  return {
    "evals/answer/workspace": { symlink: home },
    "evals/prompt/prompt.md": { symlink: join(home, "notes.txt") },
    "evals/prompt/judge.ts": judge,
    "evals/judge/prompt.md": "Reply with exactly APPLE.\n",
    "evals/judge/judge.ts": { symlink: join(home, "judge.ts") },
    "evals/reference/prompt.md": "Reply with exactly APPLE.\n",
    "evals/reference/judge.ts": judge,
    "evals/reference/REFERENCE_FIX.md": { symlink: join(home, "notes.txt") },
  };
}
