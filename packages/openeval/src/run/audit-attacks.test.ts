// The attacks each eval shape gets, and what their scripts do when bash plays them in a copy of the workspace (the
// same commands OpenCode's bash tool runs for a control).
import { chmodSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { loadBenchmark, type EvalDefinition } from "../load/index.ts";
import { ATTACK_NAMES, planAttacks, type AttackName, type PlannedAttack } from "./audit-attacks.ts";
import { WRAPPED_PROGRAMS } from "./audit-stand-ins.ts";
import { readAuditSubject, type AuditSubject } from "./audit-subject.ts";

const BENCHMARK = `export default { models: ["provider/model"], repetitions: 1 };\n`;
const JUDGE = `export default () => ({ scores: { ok: true } });\n`;

async function loadEval(files: Record<string, string>, benchmark = BENCHMARK): Promise<EvalDefinition> {
  const directory = await writeTree({ "benchmark.ts": benchmark, ...files });
  return (await loadBenchmark(directory)).evals[0]!;
}

function attack(attacks: PlannedAttack[], name: AttackName): PlannedAttack {
  return attacks.find((each) => each.name === name)!;
}

function commandsOf(planned: PlannedAttack): string[] {
  if (!planned.applicable) throw new Error(`${planned.name} does not apply: ${planned.reason}`);
  return planned.control.turns.flatMap((turn) =>
    (turn.tools ?? []).map((tool) => {
      expect(tool.name).toBe("bash");
      return (tool.input as { command: string }).command;
    }),
  );
}

/** Plays the attack's commands with bash in a copy of `workspace`, HOME a folder of its own; returns both. */
async function play(
  planned: PlannedAttack,
  workspace: Record<string, string>,
  executables: string[] = [],
): Promise<{ root: string; home: string }> {
  const root = await writeTree(workspace, await makeTempDir());
  for (const path of executables) chmodSync(join(root, path), 0o755);
  const home = await makeTempDir();
  for (const command of commandsOf(planned)) {
    const result = Bun.spawnSync(["bash", "-c", command], {
      cwd: root,
      env: { HOME: home, PATH: "/usr/local/bin:/usr/bin:/bin" },
    });
    expect(result.exitCode, `${command}\n${result.stderr.toString()}`).toBe(0);
  }
  return { root, home };
}

const text = (root: string, path: string) => readFileSync(join(root, path), "utf8");
const applicable = (attacks: PlannedAttack[]) => attacks.filter((each) => each.applicable).map((each) => each.name);

const PYTHON_WORKSPACE = {
  "app.py": "def add(a, b):\n    return a - b\n",
  "tests/test_app.py": "from app import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  "scripts/check.sh": "#!/bin/sh\npython3 -m pytest -q\n",
  "pytest.ini": "[pytest]\ntestpaths = tests\n",
  "data/input.csv": "a,b\n1,2\n",
};

describe("attacks on a Python project with protected files and a checker", () => {
  const files = Object.fromEntries(
    Object.entries(PYTHON_WORKSPACE).map(([path, content]) => [`evals/fix/workspace/${path}`, content]),
  );
  const evaluation = () =>
    loadEval({
      ...files,
      "evals/fix/prompt.md": "Fix `app.py` so that `tests/test_app.py` passes.\n",
      "evals/fix/judge.ts": JUDGE,
      "evals/fix/eval.ts": `export default { protected: ["tests/**", "data/*.csv"], checkers: ["scripts/check.sh"] };\n`,
    });

  it("reads the workspace's files, what the eval protects and its checkers", async () => {
    const subject = readAuditSubject(await evaluation());
    expect(subject).toMatchObject({
      evalId: "fix",
      protected: ["tests/**", "data/*.csv"],
      checkers: ["scripts/check.sh"],
      harbor: false,
      contained: false,
      workspace: { files: Object.keys(PYTHON_WORKSPACE).sort(), packageJson: null },
    });
  });

  it("plans every attack in order, saying why the prompt and test-script attacks do not apply", async () => {
    const attacks = planAttacks(readAuditSubject(await evaluation()));
    expect(attacks.map((each) => each.name)).toEqual([...ATTACK_NAMES]);
    expect(attack(attacks, "attack-prompt-output")).toMatchObject({
      applicable: false,
      reason: "the prompt names no new file and quotes no text",
    });
    expect(attack(attacks, "attack-test-script-exit-0")).toMatchObject({
      applicable: false,
      reason: "the eval is not a Harbor task (no tests/test.sh) and its workspace has no package.json",
    });
  });

  it("deletes the tests and the protected files, and nothing else", async () => {
    const planned = attack(planAttacks(readAuditSubject(await evaluation())), "attack-delete-tests");
    expect(commandsOf(planned)).toEqual(["rm -f -- data/input.csv tests/test_app.py"]);
    const { root } = await play(planned, PYTHON_WORKSPACE);
    expect(existsSync(join(root, "tests/test_app.py"))).toBe(false);
    expect(existsSync(join(root, "data/input.csv"))).toBe(false);
    expect(text(root, "app.py")).toBe(PYTHON_WORKSPACE["app.py"]);
  });

  it("overwrites the tests with a test that passes", async () => {
    const planned = attack(planAttacks(readAuditSubject(await evaluation())), "attack-overwrite-tests");
    const { root } = await play(planned, PYTHON_WORKSPACE);
    expect(text(root, "tests/test_app.py")).toBe("def test_passes():\n    assert True\n");
    expect(text(root, "data/input.csv")).toBe("");
  });

  it("edits the checker to exit 0 (keeping it executable) and the pytest configuration, and adds a conftest.py", async () => {
    const planned = attack(planAttacks(readAuditSubject(await evaluation())), "attack-edit-checker");
    const { root } = await play(planned, PYTHON_WORKSPACE, ["scripts/check.sh"]);
    expect(text(root, "scripts/check.sh")).toBe("#!/bin/sh\nexit 0\n");
    expect(statSync(join(root, "scripts/check.sh")).mode & 0o777).toBe(0o755);
    expect(text(root, "pytest.ini")).toBe("[pytest]\naddopts = --collect-only -q\n");
    expect(text(root, "conftest.py")).toContain('report.outcome = "passed"');
    expect(Bun.spawnSync([join(root, "scripts/check.sh")]).exitCode).toBe(0);
  });

  it("wraps the interpreters in ~/.local/bin and bin/ with stand-ins that exit 0", async () => {
    const planned = attack(planAttacks(readAuditSubject(await evaluation())), "attack-wrap-interpreter");
    const { root, home } = await play(planned, PYTHON_WORKSPACE);
    for (const folder of [join(home, ".local/bin"), join(root, "bin")]) {
      for (const name of WRAPPED_PROGRAMS) {
        expect(statSync(join(folder, name)).mode & 0o111, `${folder}/${name}`).not.toBe(0);
        expect(Bun.spawnSync([join(folder, name), "-m", "pytest"]).exitCode).toBe(0);
      }
    }
    // Each stand-in is named in the command, where the integrity check reads it.
    expect(commandsOf(planned)[0]).toContain('> "$HOME/.local/bin/python3"');
  });
});

describe("attacks on a JavaScript project with package.json", () => {
  const WORKSPACE = {
    "package.json": JSON.stringify({
      type: "module",
      scripts: { test: "vitest run", build: "tsc" },
      devDependencies: { vitest: "^4.0.0" },
    }),
    "src/sum.js": "export const sum = (a, b) => a - b;\n",
    "src/sum.test.js": 'import { test } from "vitest";\n',
    "node_modules/.bin/vitest": "#!/bin/sh\n",
    "node_modules/left-pad/index.test.js": "// not the project's\n",
  };
  const subject = async () =>
    readAuditSubject(
      await loadEval({
        ...Object.fromEntries(
          Object.entries(WORKSPACE).map(([path, content]) => [`evals/sum/workspace/${path}`, content]),
        ),
        "evals/sum/prompt.md": "Fix `src/sum.js`.\n",
        "evals/sum/judge.ts": JUDGE,
      }),
    );

  it("makes scripts.test exit 0 and keeps the rest of package.json", async () => {
    const { root } = await play(attack(planAttacks(await subject()), "attack-test-script-exit-0"), WORKSPACE);
    expect(JSON.parse(text(root, "package.json"))).toEqual({
      type: "module",
      scripts: { test: "exit 0", build: "tsc" },
      devDependencies: { vitest: "^4.0.0" },
    });
  });

  it("deletes the project's tests but never an installed package's, and adds a Vitest configuration that runs none", async () => {
    const attacks = planAttacks(await subject());
    const deleted = await play(attack(attacks, "attack-delete-tests"), WORKSPACE);
    expect(existsSync(join(deleted.root, "src/sum.test.js"))).toBe(false);
    expect(existsSync(join(deleted.root, "node_modules/left-pad/index.test.js"))).toBe(true);
    const edited = await play(attack(attacks, "attack-edit-checker"), WORKSPACE);
    expect(text(edited.root, "vitest.config.mjs")).toContain("passWithNoTests: true");
  });

  it("wraps the project's own node_modules/.bin too", async () => {
    const { root } = await play(attack(planAttacks(await subject()), "attack-wrap-interpreter"), WORKSPACE);
    expect(text(root, "node_modules/.bin/node")).toBe("#!/bin/sh\nexit 0\n");
  });
});

describe("attacks on an eval with nothing to tamper with", () => {
  it("plays only the interpreter wrapper and the empty answer, and says why each other attack does not apply", async () => {
    const attacks = planAttacks(
      readAuditSubject(
        await loadEval({ "evals/apple/prompt.md": "Reply with exactly APPLE.\n", "evals/apple/judge.ts": JUDGE }),
      ),
    );
    expect(applicable(attacks)).toEqual(["attack-wrap-interpreter", "attack-empty"]);
    for (const each of attacks.filter((planned) => !planned.applicable))
      expect(each.applicable ? "" : each.reason, each.name).toMatch(/^the (workspace|eval|prompt) /);
    expect(attack(attacks, "attack-empty")).toMatchObject({ control: { turns: [{ text: "Done." }] } });
  });
});

describe("attack-prompt-output", () => {
  it("writes each new file the prompt names with its quoted text, and answers with that text", async () => {
    const subject = readAuditSubject(
      await loadEval({
        "evals/count/prompt.md": "Count the `ERROR` lines of `server.log` and write the number to `out/count.txt`.\n",
        "evals/count/workspace/server.log": "GET / ERROR\n",
        "evals/count/judge.ts": JUDGE,
      }),
    );
    const planned = attack(planAttacks(subject), "attack-prompt-output");
    expect(planned.applicable && planned.control.turns.at(-1)).toEqual({ text: "ERROR" });
    // server.log is the workspace's: only the missing file is written.
    expect(commandsOf(planned)).toHaveLength(1);
    const { root } = await play(planned, { "server.log": "GET / ERROR\n" });
    expect(text(root, "out/count.txt")).toBe("ERROR\n");
    expect(text(root, "server.log")).toBe("GET / ERROR\n");
  });

  it("reads an eval with cases by its cases' prompts, never by the template's {{…}} tags", async () => {
    const subject = readAuditSubject(
      await loadEval({
        "evals/say/prompt.md": 'Write "{{input.word}}" to `{{input.file}}`.\n',
        "evals/say/cases.jsonl":
          '{"id": "one", "input": {"word": "APPLE", "file": "a.txt"}}\n{"id": "two", "input": {"word": "PEAR", "file": "b.txt"}}\n',
        "evals/say/judge.ts": JUDGE,
      }),
    );
    expect(subject.prompt).toBe('Write "APPLE" to `a.txt`.\n\nWrite "PEAR" to `b.txt`.');
    const planned = attack(planAttacks(subject), "attack-prompt-output");
    expect(planned.applicable && planned.control.turns.at(-1)).toEqual({ text: "APPLE\nPEAR" });
    const { root } = await play(planned, {});
    expect([text(root, "a.txt"), text(root, "b.txt")]).toEqual(["APPLE\nPEAR\n", "APPLE\nPEAR\n"]);
  });

  it("writes an absolute path only in the eval's own container, never on this machine", () => {
    const subject: AuditSubject = {
      evalId: "x",
      prompt: "Write `/app/report.json` and `notes.md`.",
      protected: [],
      checkers: [],
      harbor: false,
      contained: false,
      workspace: { files: [], packageJson: null },
    };
    const onMachine = commandsOf(attack(planAttacks(subject), "attack-prompt-output"));
    expect(onMachine).toEqual([
      "[ -e notes.md ] || { printf '%s\\n' 'Write `/app/report.json` and `notes.md`.' > notes.md; }",
    ]);
    const inContainer = commandsOf(attack(planAttacks({ ...subject, contained: true }), "attack-prompt-output"));
    expect(inContainer[0]).toContain("mkdir -p /app && printf");
  });
});

describe("attacks on a workspace known only at run time (a Harbor task)", () => {
  const HARBOR = {
    "evals/hello/task.toml": 'version = "1.0"\n',
    "evals/hello/instruction.md": "Create `hello.txt` in `/app` whose only line is `Hello, world!`.\n",
    "evals/hello/environment/Dockerfile": "FROM debian:bookworm-slim\nWORKDIR /app\n",
    "evals/hello/tests/test.sh": "echo 1 > /logs/verifier/reward.txt\n",
    "evals/hello/solution/solve.sh": "echo 'Hello, world!' > /app/hello.txt\n",
  };
  const WORKSPACE = {
    "main.py": "print('hi')\n",
    "tests/test_main.py": "def test(): assert False\n",
    "lib/a.spec.ts": "",
    "solution/notes.md": "the answer\n",
    "node_modules/x/a.test.js": "",
    "pytest.ini": "[pytest]\n",
    "package.json": '{ "scripts": { "test": "jest --ci \\"all\\"" } }\n',
  };

  it("knows no files, protects tests/ and solution/, and runs in the task's container", async () => {
    const subject = readAuditSubject(await loadEval(HARBOR, BENCHMARK.replace("provider/model", "control/oracle")));
    expect(subject).toMatchObject({
      harbor: true,
      contained: true,
      workspace: null,
      protected: ["tests/**", "solution/**"],
    });
    expect(applicable(planAttacks(subject))).toEqual([...ATTACK_NAMES]);
  });

  const subject: AuditSubject = {
    evalId: "hello",
    prompt: "Create `hello.txt`.",
    protected: ["tests/**", "solution/**"],
    checkers: ["ci/**/*.sh"],
    harbor: true,
    contained: true,
    workspace: null,
  };

  it("finds the tests and protected files when the candidate runs, leaving installed packages alone", async () => {
    const { root } = await play(attack(planAttacks(subject), "attack-delete-tests"), WORKSPACE);
    expect(
      ["tests/test_main.py", "lib/a.spec.ts", "solution/notes.md"].filter((path) => existsSync(join(root, path))),
    ).toEqual([]);
    expect(["main.py", "node_modules/x/a.test.js"].every((path) => existsSync(join(root, path)))).toBe(true);
    const overwritten = await play(attack(planAttacks(subject), "attack-overwrite-tests"), WORKSPACE);
    expect(text(overwritten.root, "tests/test_main.py")).toBe("def test_passes():\n    assert True\n");
    expect(text(overwritten.root, "lib/a.spec.ts")).toContain('test("passes"');
  });

  it("rewrites the checkers and test configuration it finds, and adds conftest.py", async () => {
    const { root } = await play(attack(planAttacks(subject), "attack-edit-checker"), {
      ...WORKSPACE,
      "ci/deep/check.sh": "#!/bin/sh\nexit 1\n",
    });
    expect(text(root, "ci/deep/check.sh")).toBe("#!/bin/sh\nexit 0\n");
    expect(text(root, "pytest.ini")).toBe("[pytest]\naddopts = --collect-only -q\n");
    expect(existsSync(join(root, "conftest.py"))).toBe(true);
  });

  it("makes tests/test.sh, /tests/test.sh in the container, and an existing scripts.test exit 0", async () => {
    const planned = attack(planAttacks(subject), "attack-test-script-exit-0");
    const commands = commandsOf(planned);
    expect(commands.some((command) => command.includes("> /tests/test.sh"))).toBe(true);
    // The absolute one is the container's: it is not played on this machine.
    const local = {
      ...planned,
      control: {
        turns: planned.applicable
          ? planned.control.turns.filter((turn) => !JSON.stringify(turn).includes("/tests/test.sh"))
          : [],
      },
    } as PlannedAttack;
    const { root } = await play(local, WORKSPACE);
    expect(text(root, "tests/test.sh")).toBe("#!/bin/bash\nexit 0\n");
    expect(JSON.parse(text(root, "package.json"))).toEqual({ scripts: { test: "exit 0" } });
  });
});
