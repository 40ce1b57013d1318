import { describe, expect, it } from "vitest";
import { processesMatching } from "../../../../test/helpers/processes.ts";
import { runnerTiePrefix, tieToRunner } from "./tie-to-runner.ts";

const TIE = new URL("./tie-to-runner.ts", import.meta.url).pathname;

/** A runner (its own Bun process) that starts `argv` tied to itself, prints the child's pid, and waits. */
function startRunner(argv: string[]) {
  const script = `import { tieToRunner } from ${JSON.stringify(TIE)};
const child = Bun.spawn(tieToRunner(${JSON.stringify(argv)}), { stdio: ["ignore", "ignore", "ignore"], detached: true });
console.log(child.pid);
await Bun.sleep(60_000);`;
  return Bun.spawn([process.execPath, "-e", script], { stdout: "pipe", stderr: "inherit" });
}

describe("tieToRunner", () => {
  it("puts setpriv's parent-death signal in front when this machine has it", () => {
    expect(tieToRunner(["x"]).at(-1)).toBe("x");
    if (Bun.which("setpriv")) expect(runnerTiePrefix()).toEqual([Bun.which("setpriv"), "--pdeathsig", "SIGKILL"]);
  });

  it.skipIf(!Bun.which("setpriv"))(
    "SIGKILL of the runner kills a tied PID namespace, detached grandchildren included",
    async () => {
      const tag = `741${Math.floor(Math.random() * 1e6)}`;
      const runner = startRunner([
        "unshare",
        "--pid",
        "--fork",
        "--kill-child",
        "--mount-proc",
        "sh",
        "-c",
        `setsid sleep ${tag}.1 & sleep ${tag}.2`,
      ]);
      // The runner, unshare, sh and both sleeps all carry the tag; after the kill none may remain.
      const sleeps = () => processesMatching(`sleep ${tag}.`);
      try {
        await runner.stdout.getReader().read(); // the child's pid: it is running
        for (let waited = 0; sleeps().length < 5 && waited < 10_000; waited += 100) await Bun.sleep(100);
        expect(sleeps().length).toBeGreaterThanOrEqual(5);
      } finally {
        runner.kill("SIGKILL");
      }
      await runner.exited;
      for (let waited = 0; sleeps().length > 0 && waited < 5_000; waited += 100) await Bun.sleep(100);
      expect(sleeps()).toEqual([]);
    },
  );
});
