import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir, writeTree } from "../../../../test/helpers/fixtures.ts";
import { recordEvidence } from "../recording/index.ts";
import { judgeEvidence } from "./judge-evidence.ts";

const POOL = new URL("./code-worker-pool.ts", import.meta.url).pathname;
const BUNDLER = new URL("./bundle-program.ts", import.meta.url).pathname;

function childrenOf(pid: number): { pid: number; commandLine: string }[] {
  const children: { pid: number; commandLine: string }[] = [];
  for (const entry of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      if (Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]) !== pid) continue;
      children.push({
        pid: Number(entry),
        commandLine: readFileSync(`/proc/${entry}/cmdline`, "utf8").replaceAll("\0", " "),
      });
    } catch {
      // ended while we looked
    }
  }
  return children;
}

const alive = (pid: number) => {
  try {
    return !readFileSync(`/proc/${pid}/stat`, "utf8").includes(") Z ");
  } catch {
    return false;
  }
};

describe("warm code-judge workers", () => {
  it("never lets one grading see another's globals: each grading has its own process", async () => {
    const evidence = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "p",
      response: "r",
    });
    const leaky = await writeTree({
      "judge.ts": `export default () => { const seen = (globalThis as any).__openevalLeak ?? null; (globalThis as any).__openevalLeak = process.pid; return { scores: { fresh: seen === null }, pid: process.pid }; };\n`,
    });
    const outputs: unknown[] = [];
    for (let index = 0; index < 3; index++) {
      const result = await judgeEvidence({
        evidence,
        code: join(leaky, "judge.ts"),
        directory: join(await makeTempDir(), `audit-${index}`),
      });
      expect(result.state).toBe("completed");
      expect(result.scores.fresh?.value).toBe(1);
      outputs.push((result.output as { pid: number }).pid);
    }
    expect(new Set(outputs).size).toBe(3);
  });

  it("starts spares from the bundled worker, and they exit when the runner is killed", async () => {
    const runner = Bun.spawn(
      [
        process.execPath,
        "-e",
        `const { takeCodeWorker } = await import(${JSON.stringify(POOL)});
         const { harnessProgram } = await import(${JSON.stringify(BUNDLER)});
         const worker = takeCodeWorker(await harnessProgram("code-worker")); worker.stdin.end(); await worker.exited;
         await Bun.sleep(300); console.log("ready"); await Bun.sleep(60_000);`,
      ],
      { stdout: "pipe", stderr: "inherit" },
    );
    const reader = runner.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain("ready");
    const spares = childrenOf(runner.pid);
    expect(spares.length).toBeGreaterThanOrEqual(1);
    for (const spare of spares) expect(spare.commandLine).toMatch(/\.cache\/openeval\/code-worker-[0-9a-f]{16}\.js/);
    runner.kill("SIGKILL");
    await runner.exited;
    const deadline = Date.now() + 5_000;
    while (spares.some((spare) => alive(spare.pid)) && Date.now() < deadline) await Bun.sleep(50);
    expect(spares.filter((spare) => alive(spare.pid))).toEqual([]);
  });
});
