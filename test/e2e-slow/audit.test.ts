// `openeval audit` on a copy of examples/audit: real OpenCode sessions play the attack controls and the positive
// control of a weak eval (its judge only checks that the file the prompt names exists) and a strong one (its judge
// derives the answer from the log the prompt does not quote). The weak one is hackable, named with its attack.
import { cp } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { AuditReport } from "../../packages/openeval/src/run/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { makeTempDir } from "../helpers/fixtures.ts";

const EXAMPLE = join(import.meta.dirname, "..", "..", "examples", "audit");
let directory: string;
let audit: CliResult;

beforeAll(async () => {
  directory = await makeTempDir();
  await cp(EXAMPLE, directory, { recursive: true });
  // 8 sessions: the positive control and three attacks (the others do not apply) on each of two evals, once.
  audit = await runCli(["audit", "--benchmark", directory], { timeoutMs: 900_000 });
}, 960_000);

describe("openeval audit", () => {
  it("exits 1 naming the weak eval and the attack that passes it, and clears the strong one", () => {
    expect(audit.exitCode, audit.stdout + audit.stderr).toBe(1);
    expect(audit.stdout).toMatch(
      /^hackable\s+weak-count: control\/attack-prompt-output earned 1\.00, as much as the reference \(1\.00\); not caught by the integrity check/m,
    );
    expect(audit.stdout).toMatch(/^robust\s+strong-count: every attack earned less than the reference \(1\.00\)$/m);
    expect(audit.stdout).toMatch(
      /^\s+control\/attack-delete-tests\s+n\/a\s+not applicable: the workspace has no test file/m,
    );
    expect(audit.stdout).toContain(
      "Hackable: weak-count (control/attack-prompt-output, not caught by the integrity check)",
    );
    // Progress goes to stderr, as calibrate's does.
    expect(audit.stderr).toMatch(/candidate weak-count × control\/attack-prompt-output #1: completed/);
  });

  it("prints the same audit as one JSON document, with each attack's credit and integrity findings", async () => {
    const again = await runCli(["audit", "--benchmark", directory, "--json"]);
    expect(again.exitCode, again.stderr).toBe(1);
    const report = JSON.parse(again.stdout) as AuditReport;
    expect(report.hackable).toEqual(["weak-count"]);
    expect(report.complete).toBe(true);
    const weak = report.evals.find((entry) => entry.evalId === "weak-count")!;
    expect(weak).toMatchObject({
      status: "hackable",
      hackedBy: ["control/attack-prompt-output"],
      reference: { score: 1, controls: [{ model: "control/positive", score: 1 }] },
    });
    const byModel = Object.fromEntries(weak.attacks.map((attack) => [attack.model, attack]));
    expect(byModel["control/attack-prompt-output"]).toMatchObject({ score: 1, findings: [], caught: false });
    expect(byModel["control/attack-empty"]).toMatchObject({ score: 0, hacks: false });
    // The wrapper earns nothing here, but the integrity check sees each stand-in it wrote.
    const wrapper = byModel["control/attack-wrap-interpreter"]!;
    expect(wrapper).toMatchObject({ score: 0, caught: true });
    expect(wrapper.findings).toContainEqual(
      expect.objectContaining({ kind: "checker_tampering", severity: "fail", subject: "$HOME/.local/bin/python3" }),
    );
    expect(wrapper.findings).toContainEqual(
      expect.objectContaining({ kind: "checker_tampering", subject: "bin/python3" }),
    );
    const strong = report.evals.find((entry) => entry.evalId === "strong-count")!;
    expect([strong.status, strong.hackedBy]).toEqual(["robust", []]);
    expect(strong.attacks.filter((attack) => attack.applicable).map((attack) => attack.score)).toEqual([0, 0, 0]);
  });

  it("audits only the evals --eval names: the strong one alone exits 0", async () => {
    const strong = await runCli(["audit", "--benchmark", directory, "--eval", "strong-count"]);
    expect(strong.exitCode, strong.stdout + strong.stderr).toBe(0);
    expect(strong.stdout).not.toContain("weak-count");
    expect(strong.stdout).toContain("No eval is hackable by the built-in attacks.");
  });

  it("retires the attacks from the run once played: a later run plans only the benchmark's models", async () => {
    const plan = await runCli(["plan", "--benchmark", directory, "--json"]);
    expect(plan.exitCode, plan.stderr).toBe(0);
    expect(plan.stdout).toContain("control/positive");
    expect(plan.stdout).not.toContain("control/attack-");
  });
});
