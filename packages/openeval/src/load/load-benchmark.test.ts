import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, minimalBenchmark, writeTree } from "../../../../test/helpers/fixtures.ts";
import { checkModelOverride, loadBenchmark } from "./load-benchmark.ts";
import { agreementSettingsOf, judgePanelOf } from "./judge-panel.ts";
import { loadProblems } from "./fixtures/load-problems.ts";

async function problemsOf(files: Record<string, string | { symlink: string }>): Promise<string[]> {
  return loadProblems(await writeTree(files));
}

describe("loadBenchmark", () => {
  it("loads the example benchmark at the repository root", async () => {
    const benchmark = await loadBenchmark(join(import.meta.dirname, "..", "..", "..", ".."));
    expect(benchmark.evals.map((evaluation) => evaluation.id)).toEqual([
      "exact-answer",
      "fix-discount",
      "fix-slugify",
      "incident-summary",
      "tidy-build",
    ]);
    const incident = benchmark.evals[3]!;
    expect(incident.criteria).toEqual([
      { id: "supported_summary", label: "Source-supported summary", categories: [], source: "judge.md" },
      { id: "json_shape", label: "Answer is a JSON object with a summary string", categories: [], source: "judge.ts" },
    ]);
    expect(incident.prompt.title).toBe("Incident summary");
    expect(incident.prompt.text.startsWith("Summarize the incident")).toBe(true);
    expect(incident.workspace.fileCount).toBe(1);
    expect(Object.keys(incident.controls).sort()).toEqual(["negative", "positive"]);
    const tidy = benchmark.evals[4]!;
    expect(tidy.settings.earlyStop).toEqual({ minIntervalMs: 1_000, maxChecks: 6 });
    expect(tidy.code).toBeNull();
    expect(tidy.controls.positive!.earlyCheck).toBe("continue");
  });

  it("applies defaults and discovers evals in name order", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"] };\n`,
        "evals/b-second/prompt.md": "Second\n",
        "evals/b-second/judge.ts": "export default () => ({ scores: { ok: true } });\n",
        "evals/a-first/prompt.md": "First\n",
        "evals/a-first/judge.ts": "export default () => ({ scores: { ok: true } });\n",
        "evals/.hidden/prompt.md": "ignored\n",
      }),
    );
    const benchmark = await loadBenchmark(directory);
    expect(benchmark.evals.map((evaluation) => evaluation.id)).toEqual(["a-first", "answer", "b-second"]);
    expect(benchmark.settings.repetitions).toBe(3);
    expect(benchmark.settings.judge.timeoutMs).toBe(600_000);
    expect(benchmark.settings.candidate.timeoutMs).toBe(45 * 60 * 1000);
  });

  it("names the key and the file for unknown keys, wrong types, duplicate and malformed models", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["a/b", "nomodel"], repetitions: "3", colour: "red" };\n`,
      }),
    );
    expect(problems).toEqual([
      'benchmark.ts: models[1]: must look like "provider/model" or "provider/model#variant"',
      "benchmark.ts: repetitions: Invalid input: expected number or object, received string",
      'benchmark.ts: unknown key "colour"; remove or correct it',
    ]);
    expect(
      await problemsOf(minimalBenchmark({ "benchmark.ts": `export default { models: ["a/b", "a/b"] };\n` })),
    ).toEqual(['benchmark.ts: models[1]: duplicate model "a/b"']);
  });

  it("refuses OpenEval 0.5 settings it has no equivalent for, saying what to use instead", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["a/b"], suite: "core", container: { engine: "docker", cpus: 2 }, candidate: { websearch: "exa" }, judge: { websearch: false } };\n`,
      }),
    );
    expect(problems).toEqual([
      "benchmark.ts: judge.websearch: OpenEval's setting is not supported by this openeval: OpenCode's web search is not offered to candidates or judges here; remove websearch",
      "benchmark.ts: candidate.websearch: OpenEval's setting is not supported by this openeval: OpenCode's web search is not offered to candidates or judges here; remove websearch",
      "benchmark.ts: suite: OpenEval's setting is not supported by this openeval: runs are grouped by benchmark folder here; name the benchmark with name",
      expect.stringMatching(
        /^benchmark\.ts: container: OpenEval's setting is not supported by this openeval: set candidate\.container \(\{ cpus, memoryMiB, host \}\) and candidate\.isolation/,
      ),
    ]);
  });

  it("lists every broken eval: missing prompt.md, duplicate criterion, no default export, syntax error, no judge", async () => {
    const problems = await problemsOf({
      "benchmark.ts": `export default { models: ["p/m"], judge: { model: "p/judge" } };\n`,
      "evals/no-prompt/judge.ts": "export default () => ({ scores: {} });\n",
      "evals/dup/prompt.md": "x\n",
      "evals/dup/judge.md": "## Criterion: a — A\nx\n## Criterion: a — A again\ny\n",
      "evals/no-default/prompt.md": "x\n",
      "evals/no-default/judge.ts": "export const grade = () => ({});\n",
      "evals/syntax/prompt.md": "x\n",
      "evals/syntax/judge.ts": "export default () => ({ scores: { ok: true } ;\n",
      "evals/no-judge/prompt.md": "x\n",
      "evals/both/prompt.md": "x\n",
      "evals/both/judge.md": "## Criterion: shared — Shared\nx\n",
      "evals/both/judge.ts": `export const criteria = ["shared"];\nexport default () => ({ scores: { shared: true } });\n`,
    });
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^evals\/no-prompt: an eval needs prompt.md .*missing: prompt.md/),
        expect.stringMatching(/^evals\/dup\/judge.md: line 3: duplicate criterion id "a"/),
        expect.stringMatching(/^evals\/no-default\/judge.ts: has no default export/),
        expect.stringMatching(/^evals\/syntax\/judge.ts: does not compile/),
        expect.stringMatching(/^evals\/no-judge: .*missing: judge.md or judge.ts/),
        expect.stringMatching(/^evals\/both\/judge.ts: criterion "shared" is declared in both judge.md and judge.ts/),
      ]),
    );
    expect(problems).toHaveLength(6);
  });

  it("requires judge.model for judge.md, a control file for each control model, and no escaping symlinks", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"] };\n`,
        "evals/answer/judge.md": "## Criterion: good — Good\nx\n",
        "evals/answer/judge.ts": `export default () => ({ scores: { correct: true } });\n`,
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(/^benchmark.ts: judge.model is required because answer has judge.md/),
      expect.stringMatching(
        /^evals\/answer\/controls: model "control\/positive" needs evals\/answer\/controls\/positive.json/,
      ),
    ]);
    expect(
      await problemsOf(minimalBenchmark({ "evals/answer/workspace/link": { symlink: "../../judge.ts" } })),
    ).toEqual([
      expect.stringMatching(
        /^evals\/answer\/workspace: has symlinks pointing outside the workspace \(link -> \.\.\/\.\.\/judge\.ts\)/,
      ),
    ]);
  });

  it("rejects earlyStop at concurrency 1, which leaves no lane for checks", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, concurrency: 1, judge: { model: "provider/judge" } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
        "evals/notes/eval.ts": "export default { earlyStop: { minIntervalMs: 10_000 } };\n",
      }),
    );
    expect(problems).toEqual([
      expect.stringMatching(
        /^benchmark.ts: concurrency 1 leaves no lane for the earlyStop checks of notes; set concurrency to 2 or more/,
      ),
    ]);
  });

  it("takes a judge panel (judge.model beside judge.models), and refuses a model listed twice or a panel deciding early", async () => {
    const directory = await writeTree(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], judge: { model: "a/judge", models: ["b/judge"], combine: "min", minAgreement: 0.8, strict: true } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
      }),
    );
    const { settings } = await loadBenchmark(directory);
    expect(judgePanelOf(settings)).toEqual({ models: ["a/judge", "b/judge"], combine: "min" });
    expect(agreementSettingsOf(settings)).toEqual({ minAgreement: 0.8, minUnits: 2, strict: true });
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], concurrency: 2, judge: { model: "a/judge", models: ["b/judge", "a/judge"], combine: "vote" } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
        "evals/notes/eval.ts": "export default { earlyStop: true };\n",
      }),
    );
    expect(problems).toEqual([expect.stringMatching(/^benchmark.ts: judge.combine: .*"mean"\|"majority"\|"min"/)]);
    const more = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], concurrency: 2, judge: { model: "a/judge", models: ["b/judge", "a/judge"] } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
        "evals/notes/eval.ts": "export default { earlyStop: true };\n",
      }),
    );
    expect(more).toEqual([
      "benchmark.ts: judge.models: a/judge is listed twice (judge.model counts as one of the panel); list each judge model once, and grade a recording again with openeval rejudge --repeat <n>",
      "benchmark.ts: judge.models: a panel cannot decide early, since an earlyStop check is one judge's decision; remove earlyStop from notes, or grade with one judge model",
    ]);
  });

  it("refuses a scripted judge variant no control file declares, naming it", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["control/positive"], judge: { models: ["control/judge", "control/judge#hrash"] } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
        "evals/notes/controls/positive.json": JSON.stringify({
          turns: [{ text: "Notes." }],
          verdict: { clear: { value: true, reason: "Clear." } },
          judges: { harsh: { clear: { value: false, reason: "Unclear." } } },
        }),
        "evals/answer/controls/positive.json": JSON.stringify({ turns: [{ text: "APPLE" }] }),
      }),
    );
    expect(problems).toEqual([
      'benchmark.ts: judge.models: control/judge#hrash plays a control file\'s judges.hrash verdict, and no control of an eval with judge.md declares one; add "judges": { "hrash": { … } } to a control file, or fix the name',
    ]);
  });

  it("takes OpenEval's eval.ts candidate: { timeoutMs }, with top-level timeoutMs as its alias, and refuses both at once", async () => {
    const loadWith = async (evalTs: string) => {
      const directory = await writeTree(minimalBenchmark({ "evals/answer/eval.ts": evalTs }));
      return (await loadBenchmark(directory)).evals[0]!.settings.timeoutMs;
    };
    expect(await loadWith("export default { candidate: { timeoutMs: 90_000 } };\n")).toBe(90_000);
    expect(await loadWith("export default { timeoutMs: 80_000 };\n")).toBe(80_000);
    expect(await loadWith("export default {};\n")).toBeUndefined();
    expect(
      await problemsOf(
        minimalBenchmark({ "evals/answer/eval.ts": "export default { timeoutMs: 1, candidate: { timeoutMs: 2 } };\n" }),
      ),
    ).toEqual([
      expect.stringMatching(
        /^evals\/answer\/eval.ts: .*timeoutMs.*is an alias of candidate.timeoutMs; give the timeout once, as candidate: \{ timeoutMs \}/,
      ),
    ]);
    expect(
      await problemsOf(
        minimalBenchmark({
          "evals/answer/eval.ts": "export default { candidate: { timeoutMs: 1, websearch: false } };\n",
        }),
      ),
    ).toEqual([expect.stringMatching(/^evals\/answer\/eval.ts: .*websearch/)]);
  });

  it("takes OpenEval's prepare steps, cwd defaulting to the workspace root and normalized", async () => {
    const evalTs =
      'export default { prepare: [{ argv: ["npm", "install"] }, { cwd: "./app/", argv: ["sh", "-c", "make"] }] };\n';
    const benchmark = await loadBenchmark(await writeTree(minimalBenchmark({ "evals/answer/eval.ts": evalTs })));
    expect(benchmark.evals[0]!.settings.prepare).toEqual([
      { cwd: ".", argv: ["npm", "install"] },
      { cwd: "app", argv: ["sh", "-c", "make"] },
    ]);
  });

  it("refuses prepare steps whose cwd leaves the workspace or whose argv is empty, saying what to write", async () => {
    const problems = await problemsOf(
      minimalBenchmark({
        "evals/answer/eval.ts":
          'export default { prepare: [{ cwd: "../up", argv: ["ls"] }, { cwd: "/etc", argv: ["ls"] }, { argv: [] }, { argv: [""] }, { argv: ["ls"], shell: true }] };\n',
      }),
    );
    const outside =
      'must be a folder inside the workspace, relative to its root ("." for the root), without ".." or an absolute path';
    expect(problems).toEqual([
      `evals/answer/eval.ts: prepare[0].cwd: ${outside}`,
      `evals/answer/eval.ts: prepare[1].cwd: ${outside}`,
      'evals/answer/eval.ts: prepare[2].argv: give the command and its arguments as a list, e.g. ["npm", "install"]',
      "evals/answer/eval.ts: prepare[3].argv: the command (argv[0]) is empty; name the program to run",
      'evals/answer/eval.ts: prepare[4]: unknown key "shell"; remove or correct it',
    ]);
  });

  it("takes eval.ts protected and checkers, protects a task's tests/ and solution/ by default, and lists judge-only files as answer keys", async () => {
    const benchmark = await loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "evals/answer/eval.ts":
            'export default { protected: ["tests/**", "package-lock.json"], checkers: ["check.sh"] };\n',
          "evals/answer/REFERENCE_FIX.md": "APPLE\n",
        }),
      ),
    );
    expect(benchmark.evals[0]!.integrity).toEqual({
      protected: ["tests/**", "package-lock.json"],
      checkers: ["check.sh"],
      answerKeys: ["REFERENCE_FIX.md", "judge.ts"],
    });
    const harbor = await loadBenchmark(join(import.meta.dirname, "../../../../examples/harbor"));
    const task = harbor.evals.find((evaluation) => evaluation.id === "hello-file")!;
    expect(task.integrity.protected).toEqual(["tests/**", "solution/**"]);
    expect(task.integrity.answerKeys).toContain("tests/test.sh");
    expect(task.integrity.answerKeys).toContain("solution/solve.sh");
  });

  it("refuses protected globs that leave the workspace, and integrity settings naming no finding or one twice", async () => {
    const benchmark = (integrity: string) =>
      `export default { models: ["provider/model"], repetitions: 1, integrity: ${integrity} };\n`;
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": benchmark('{ fail: ["protected_path_changed", "cheating"] }'),
        "evals/answer/eval.ts": 'export default { protected: ["../judge.ts", "/etc/**"] };\n',
      }),
    );
    const glob = "must be a workspace-relative glob (no leading / and no ..), such as tests/** or package-lock.json";
    expect(problems).toEqual([
      'benchmark.ts: integrity.fail[1]: "cheating" is not an integrity finding; the findings are protected_path_changed, checker_tampering, read_outside_workspace, answer_key_probe, network_refused',
      `evals/answer/eval.ts: protected[0]: ${glob}`,
      `evals/answer/eval.ts: protected[1]: ${glob}`,
    ]);
    const twice = await problemsOf(
      minimalBenchmark({ "benchmark.ts": benchmark('{ fail: ["network_refused"], warn: ["network_refused"] }') }),
    );
    expect(twice).toEqual([
      'benchmark.ts: integrity.warn: "network_refused" is listed in both fail and warn; keep it in one',
    ]);
  });

  it("takes benchmark.ts invariants with their defaults, and refuses a bad id, a duplicate, an empty argv or an unknown input, saying what to write", async () => {
    const benchmark = (invariants: string) =>
      `export default { models: ["provider/model"], repetitions: 1, invariants: ${invariants} };\n`;
    const loaded = await loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "benchmark.ts": benchmark('[{ id: "cost-cap", argv: ["bun", "checks/cost.ts"], over: "summary" }]'),
        }),
      ),
    );
    expect(loaded.settings.invariants).toEqual([
      { id: "cost-cap", argv: ["bun", "checks/cost.ts"], over: "summary", timeoutMs: 120_000 },
    ]);
    const problems = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": benchmark(
          '[{ id: "Cost Cap", argv: ["x"], over: "summary" }, { id: "a", argv: [], over: "workspaces" }, { id: "a", argv: ["x"], over: "sumary" }, { id: "b", argv: ["x"] }, { id: "c", argv: [""], over: "summary", run: 1 }]',
        ),
      }),
    );
    const inputs =
      'write over: "summary" (the run\'s summary JSON at /input/summary.json) or over: "workspaces" (every eval run\'s final workspace under /input/workspaces/<eval>/<eval-run>/)';
    expect(problems).toEqual([
      'benchmark.ts: invariants[0].id: must be a lowercase letter or digit, then lowercase letters, digits, ".", "_" or "-", such as "no-secrets-in-workspaces"',
      'benchmark.ts: invariants[1].argv: give the command and its arguments as a list, e.g. ["bun", "checks/no-secrets.ts"]',
      `benchmark.ts: invariants[2].over: "sumary" is not an input; ${inputs}`,
      `benchmark.ts: invariants[3].over: is missing; ${inputs}`,
      "benchmark.ts: invariants[4].argv: the command (argv[0]) is empty; name the program to run",
      'benchmark.ts: invariants[4]: unknown key "run"; remove or correct it',
    ]);
    const twice = await problemsOf(
      minimalBenchmark({
        "benchmark.ts": benchmark(
          '[{ id: "a", argv: ["x"], over: "summary" }, { id: "a", argv: ["y"], over: "summary" }]',
        ),
      }),
    );
    expect(twice).toEqual(['benchmark.ts: invariants[1].id: "a" is declared twice; give each invariant its own id']);
  });

  it("refuses Ceiling: reference_fix in an eval without REFERENCE_FIX.md, naming the criteria", async () => {
    const rubric = "## Criterion: fixed — Fixed\nCeiling: reference_fix\nThe bug is gone.\n";
    const files = minimalBenchmark({
      "benchmark.ts":
        'export default { models: ["provider/model"], repetitions: 1, judge: { model: "provider/judge" } };\n',
      "evals/answer/judge.md": rubric,
    });
    expect(await problemsOf(files)).toEqual([
      "evals/answer/judge.md: fixed: Ceiling: reference_fix caps a score at the reference-fix scorer's value, and this eval has no REFERENCE_FIX.md; add it, or remove the Ceiling line",
    ]);
    const loaded = await loadBenchmark(
      await writeTree({ ...files, "evals/answer/REFERENCE_FIX.md": "```diff\n```\n" }),
    );
    expect(loaded.evals[0]!.rubric?.criteria[0]?.ceiling).toBe("reference_fix");
    const early = await problemsOf({
      ...files,
      "evals/answer/REFERENCE_FIX.md": "```diff\n```\n",
      "evals/answer/eval.ts": "export default { earlyStop: true };\n",
    });
    expect(early).toContain(
      "evals/answer/eval.ts: earlyStop decides on a snapshot of a running candidate, and fixed is capped by the reference fix, which scores the final changes; remove earlyStop or the Ceiling line",
    );
  });

  it("takes OpenEval's repository workspace: a local path becomes a file:// URL, checkout and remote get their defaults", async () => {
    const commit = "a".repeat(40);
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/eval.ts": `export default { workspace: { repository: "../../source", commit: "${commit}", ref: "main", overlay: "extra" } };\n`,
        "evals/answer/extra/NOTES.md": "n\n",
      }),
    );
    const evaluation = (await loadBenchmark(directory)).evals[0]!;
    expect(evaluation.workspace).toMatchObject({
      directory: null,
      git: {
        repository: `file://${join(directory, "source")}`,
        commit,
        ref: "main",
        checkout: "checkout",
        remote: "upstream",
        overlay: "extra",
      },
    });
  });

  it("refuses repository workspaces OpenEval would refuse, or that could not be fetched offline and without credentials, saying what to write", async () => {
    const problemsWith = (workspace: string, files: Record<string, string> = {}) =>
      problemsOf(
        minimalBenchmark({ "evals/answer/eval.ts": `export default { workspace: ${workspace} };\n`, ...files }),
      );
    const commit = `"${"b".repeat(40)}"`;
    expect(await problemsWith(`{ repository: "https://github.com/o/r", ref: "main" }`)).toEqual([
      "evals/answer/eval.ts: workspace.commit: a repository workspace needs the commit to check out (its full 40-character id)",
    ]);
    expect(await problemsWith(`{ repository: "https://github.com/o/r", commit: "abc123", ref: "main" }`)).toEqual([
      "evals/answer/eval.ts: workspace.commit: must be the full 40-character commit id (lowercase hex)",
    ]);
    const fetchable =
      "must be a credential-free https:// URL, a file:// URL or a local path (relative to the eval's folder)";
    expect(
      await problemsWith(`{ repository: "https://user:token@github.com/o/r", commit: ${commit}, ref: "main" }`),
    ).toEqual([`evals/answer/eval.ts: workspace.repository: ${fetchable}`]);
    expect(await problemsWith(`{ repository: "git@github.com:o/r.git", commit: ${commit}, ref: "main" }`)).toEqual([
      `evals/answer/eval.ts: workspace.repository: ${fetchable}`,
    ]);
    expect(await problemsWith(`{ ref: "main" }`)).toEqual([
      "evals/answer/eval.ts: workspace.repository: give either repository (with commit) or revisions, not both or neither",
    ]);
    expect(await problemsWith(`{ repository: ".", commit: ${commit}, ref: "../x" }`)).toEqual([
      'evals/answer/eval.ts: workspace.ref: is not a usable git ref name (no "..", no leading "-" or "/", no trailing "/" or ".lock")',
    ]);
    expect(
      await problemsWith(`{ revisions: [{ ref: "main", directory: "v1", message: "One" }], ref: "feature" }`, {
        "evals/answer/v1/a.txt": "a\n",
      }),
    ).toEqual([
      "evals/answer/eval.ts: workspace.ref: must be one of the revisions' refs (main): the checkout starts there",
    ]);
    expect(
      await problemsWith(`{ revisions: [{ ref: "main", directory: "v1", message: "One" }], ref: "main" }`),
    ).toEqual([
      "evals/answer/eval.ts: names the folder v1, which the eval does not have; create it or correct the path",
    ]);
    expect(await problemsWith(`{ repository: ".", commit: ${commit}, ref: "main", checkout: "../out" }`)).toEqual([
      'evals/answer/eval.ts: workspace.checkout: must be a simple name (letters, digits, "_", "." and "-"), not a path',
    ]);
    expect(
      await problemsWith(`{ repository: ".", commit: ${commit}, ref: "main" }`, {
        "evals/answer/workspace/a.txt": "a\n",
      }),
    ).toEqual([
      "evals/answer/eval.ts: workspace: the candidate starts from the repository, so the workspace/ folder would be ignored; move its files to a folder named by workspace.overlay, or remove one of them",
    ]);
  });

  it("takes earlyStop onlyModels naming models of benchmark.ts, and refuses one it does not list", async () => {
    const files = (onlyModels: string) =>
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model", "provider/other"], repetitions: 1, judge: { model: "provider/judge" } };\n`,
        "evals/notes/prompt.md": "Write notes.\n",
        "evals/notes/judge.md": "# Notes\n\n## Criterion: clear — Clear notes\n\nThe notes are clear.\n",
        "evals/notes/eval.ts": `export default { earlyStop: { onlyModels: ${onlyModels} } };\n`,
      });
    const benchmark = await loadBenchmark(await writeTree(files(`["provider/other"]`)));
    expect(benchmark.evals.find((evaluation) => evaluation.id === "notes")!.settings.earlyStop).toEqual({
      onlyModels: ["provider/other"],
    });
    expect(await problemsOf(files(`["provider/typo"]`))).toEqual([
      'evals/notes/eval.ts: earlyStop.onlyModels: "provider/typo" is not a model of benchmark.ts; the models are: provider/model, provider/other',
    ]);
    expect(await problemsOf(files(`[]`))).toEqual([
      expect.stringMatching(/^evals\/notes\/eval.ts: .*list at least one model, or remove onlyModels/),
    ]);
  });

  it("rejects earlyStop with judge.ts and reports an unreadable benchmark.ts", async () => {
    expect(
      await problemsOf(minimalBenchmark({ "evals/answer/eval.ts": "export default { earlyStop: true };\n" })),
    ).toEqual([expect.stringMatching(/^evals\/answer\/eval.ts: earlyStop needs a Markdown-only judge/)]);
    expect(await problemsOf(minimalBenchmark({ "benchmark.ts": "export default {{;\n" }))).toEqual([
      expect.stringMatching(/^benchmark.ts: could not be loaded/),
    ]);
    const empty = await makeTempDir();
    await expect(loadBenchmark(empty)).rejects.toThrow(/benchmark.ts: not found/);
  });

  it("never executes judge code while loading", async () => {
    const marker = join(await makeTempDir(), "judge-ran.txt");
    const directory = await writeTree(
      minimalBenchmark({
        "evals/answer/judge.ts": `import { writeFileSync } from "node:fs";\nwriteFileSync(${JSON.stringify(marker)}, "ran");\nexport default () => ({ scores: { ok: true } });\n`,
      }),
    );
    await loadBenchmark(directory);
    expect(existsSync(marker)).toBe(false);
  });

  it("checks a --model override like benchmark.ts's own list", async () => {
    const benchmark = await loadBenchmark(await writeTree(minimalBenchmark()));
    expect(() => checkModelOverride(benchmark, ["p/ok", "bad model"])).toThrow(
      /--model: "bad model" must look like "provider\/model"/,
    );
    expect(() => checkModelOverride(benchmark, ["control/ghost"])).toThrow(
      /model "control\/ghost" needs evals\/answer\/controls\/ghost.json/,
    );
    expect(() => checkModelOverride(benchmark, ["p/ok", "p/other#high"])).not.toThrow();
  });

  it("rejects a gates.criteria id no eval declares when every eval's criteria are known, listing the declared ones", async () => {
    const declared = `export const criteria = { correct: "Correct" };\nexport default ({ response }) => ({ scores: { correct: response.text === "APPLE" } });\n`;
    expect(
      await problemsOf(
        minimalBenchmark({
          "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, gates: { criteria: { corect: { min: 1 }, correct: { min: 1 } } } };\n`,
          "evals/answer/judge.ts": declared,
        }),
      ),
    ).toEqual([
      'benchmark.ts: gates.criteria.corect: no eval declares a criterion "corect"; the criteria are: correct',
    ]);
    // judge.ts without `export const criteria`: the gate could never be decided, so it must declare what it gates.
    expect(
      await problemsOf(
        minimalBenchmark({
          "benchmark.ts": `export default { models: ["provider/model"], gates: { criteria: { correct: { min: 1 } } } };\n`,
        }),
      ),
    ).toEqual([
      'benchmark.ts: gates.criteria.correct: no eval declares a criterion "correct"; the criteria are: (none); a gate needs its criterion declared: list the criteria evals/answer/judge.ts returns in `export const criteria`',
    ]);
  });

  it("refuses settings the harness owns or the engine cannot run, saying the limit", async () => {
    const benchmark = (settings: string) =>
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, ${settings} };\n`,
      });
    expect(
      await problemsOf(
        benchmark(`candidate: { providers: { control: { options: { baseURL: "http://127.0.0.1:1" } } } }`),
      ),
    ).toEqual([
      'benchmark.ts: candidate.providers.control: "control" is the built-in provider of the scripted control models; only their prices may be set here, as control: { models: { <name>: { cost: { input, output } } } }. Give your own provider another name',
    ]);
    await expect(
      loadBenchmark(
        await writeTree(
          benchmark(
            `candidate: { providers: { control: { models: { positive: { cost: { input: 3, output: 15 } } } } } }`,
          ),
        ),
      ),
    ).resolves.toBeDefined();
    expect(
      await problemsOf(
        benchmark(
          `candidate: { container: { memoryMiB: 1, pidsLimit: 1 } }, judge: { verification: { memoryMiB: 6 } }`,
        ),
      ),
    ).toEqual([
      "benchmark.ts: judge.verification.memoryMiB: must be at least 64 (MiB), room for a test command and its runtime; the default is 4096",
      "benchmark.ts: candidate.container.memoryMiB: must be at least 256 (MiB): OpenCode alone takes about 200 MiB in the container, besides the agent's commands; the default is 4096",
      "benchmark.ts: candidate.container.pidsLimit: must be at least 64: OpenCode's threads, its shell and the agent's commands all count; the default is 1024",
    ]);
  });

  it("takes candidate.maxTokens and maxSteps as whole counts of at least 1, naming the key of a bad one", async () => {
    const benchmark = (candidate: string) =>
      minimalBenchmark({
        "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1, candidate: ${candidate} };\n`,
      });
    const loaded = await loadBenchmark(await writeTree(benchmark("{ maxTokens: 200_000, maxSteps: 50 }")));
    expect(loaded.settings.candidate).toMatchObject({ maxTokens: 200_000, maxSteps: 50 });
    expect((await loadBenchmark(await writeTree(benchmark("{}")))).settings.candidate).not.toHaveProperty("maxSteps");
    expect(await problemsOf(benchmark(`{ maxTokens: 0, maxSteps: 2.5 }`))).toEqual([
      "benchmark.ts: candidate.maxTokens: must be a whole number of tokens (input + output, as recorded), at least 1",
      "benchmark.ts: candidate.maxSteps: must be a whole number of model steps, at least 1",
    ]);
    expect(await problemsOf(benchmark(`{ maxTokens: "100k", maxSteps: -3 }`))).toEqual([
      "benchmark.ts: candidate.maxTokens: must be a whole number of tokens (input + output, as recorded), at least 1",
      "benchmark.ts: candidate.maxSteps: must be a whole number of model steps, at least 1",
    ]);
  });

  it("bounds repetitions and the slot count before anything is planned", async () => {
    expect(
      await problemsOf(
        minimalBenchmark({ "benchmark.ts": `export default { models: ["provider/model"], repetitions: 1e9 };\n` }),
      ),
    ).toEqual([
      "benchmark.ts: repetitions: must be at most 1000; each repetition runs every eval for every model again",
    ]);
    const models = Array.from({ length: 1001 }, (_, index) => `"p/m${index}"`).join(", ");
    expect(
      await problemsOf(
        minimalBenchmark({ "benchmark.ts": `export default { models: [${models}], repetitions: 1000 };\n` }),
      ),
    ).toEqual([
      "benchmark.ts: 1 evals × 1001 models × 1 variants (current included) × 1000 repetitions make 1,001,000 slots, over the limit of 1,000,000; lower repetitions, or split the benchmark",
    ]);
    const benchmark = await loadBenchmark(
      await writeTree(
        minimalBenchmark({
          "benchmark.ts": `export default { models: ["p/m"], repetitions: 1000, variants: { terse: {} } };\n`,
        }),
      ),
    );
    const many = Array.from({ length: 501 }, (_, index) => `p/m${index}`);
    expect(() => checkModelOverride(benchmark, many)).toThrow(
      "--model: 1 evals × 502 models × 2 variants (current included) × 1000 repetitions make 1,004,000 slots, over the limit of 1,000,000",
    );
    expect(() => checkModelOverride(benchmark, many.slice(0, 499))).not.toThrow();
    // Each case of an eval with cases is its own slot.
    const cases = Array.from({ length: 3 }, (_, index) => `{"id": "c${index}", "input": {}}\n`).join("");
    const fewerModels = Array.from({ length: 334 }, (_, index) => `"p/m${index}"`).join(", ");
    expect(
      await problemsOf(
        minimalBenchmark({
          "benchmark.ts": `export default { models: [${fewerModels}], repetitions: 1000 };\n`,
          "evals/answer/cases.jsonl": cases,
        }),
      ),
    ).toEqual([
      "benchmark.ts: 1 evals (3 with their cases) × 334 models × 1 variants (current included) × 1000 repetitions make 1,002,000 slots, over the limit of 1,000,000; lower repetitions, or split the benchmark",
    ]);
  });
});
