// Journeys: `--help` and `--version` answer without loading the harness, every command's help describes each of
// its options within 80 columns when stdout is not a terminal, and a command refuses a flag it does not honour.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";
import { makeTempDir, minimalBenchmark, writeTree } from "../helpers/fixtures.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const SOURCE = join(ROOT, "packages", "openeval", "src");
const PROBE = join(import.meta.dirname, "..", "helpers", "module-probe.ts");

/** The modules `openeval <args>` loads (absolute paths); it must exit 0. */
async function modulesLoadedBy(args: string[]): Promise<string[]> {
  const file = join(await makeTempDir(), "modules.txt");
  const child = Bun.spawn([process.execPath, PROBE, ...args], {
    env: { ...process.env, OPENEVAL_MODULE_PROBE: file },
    stdout: "ignore",
    stderr: "pipe",
  });
  const [stderr, exitCode] = await Promise.all([new Response(child.stderr).text(), child.exited]);
  expect(exitCode, stderr).toBe(0);
  return readFileSync(file, "utf8").split("\n");
}

/** Where loaded modules come from: a source folder (stage), a package, or another file of the repository. */
function originsOf(modules: string[]): string[] {
  const origin = (path: string) => {
    const inPackage = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (inPackage) return `package ${inPackage[1]}`;
    return path.startsWith(`${SOURCE}/`) ? `src/${relative(SOURCE, path).split("/")[0]}` : relative(ROOT, path);
  };
  return [...new Set(modules.map(origin))].sort();
}

describe("--help and --version load only what they print", () => {
  it.each(["--version", "--help", "run --help", "retry --help", "view --help"])(
    "openeval %s loads cli/ and util/ only, no stage and no package",
    async (args) => {
      const modules = await modulesLoadedBy(args.split(" "));
      expect(originsOf(modules)).toEqual([
        "package opencode-ai",
        "packages/openeval/package.json",
        "src/cli",
        "src/util",
      ]);
      // Of the package, its version only.
      expect(modules.filter((path) => path.includes("/node_modules/")).map((path) => relative(ROOT, path))).toEqual([
        "node_modules/opencode-ai/package.json",
      ]);
    },
  );

  it("the probe sees what a command loads when it runs (validate loads the benchmark loader)", async () => {
    const directory = await writeTree(minimalBenchmark());
    expect(originsOf(await modulesLoadedBy(["validate", "--benchmark", directory]))).toContain("src/load");
  });
});

describe("every command's --help", () => {
  it("gives each option a description, within 80 columns when stdout is not a terminal", async () => {
    const overview = await runCli(["--help"]);
    const names = [...overview.stdout.matchAll(/^ {2}([a-z-]+) {2,}/gm)].map((match) => match[1]!);
    expect(names).toHaveLength(21);
    for (const name of names) {
      const help = await runCli([name, "--help"]);
      expect(help.exitCode, name).toBe(0);
      const lines = help.stdout.trimEnd().split("\n");
      expect(Math.max(...lines.map((line) => [...line].length)), name).toBeLessThanOrEqual(80);
      const options = lines.slice(lines.indexOf("Options:") + 1);
      for (const [index, line] of options.entries()) {
        if (!line.startsWith("  --")) continue;
        // A description beside the flag, or on the next line when the flag is long.
        const described = /^ {2}\S.*?\S {2,}\S/.test(line) || /^ {6,}\S/.test(options[index + 1] ?? "");
        expect(described, `${name}: ${line}`).toBe(true);
      }
    }
  });

  it("run --help and the README document --json as JSON Lines", async () => {
    const help = await runCli(["run", "--help"]);
    expect(help.stdout.replace(/\s+/g, " ")).toContain(
      "--json Print the events and the summary to stdout as JSON Lines (one JSON object per line)",
    );
    expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain("`--json` (JSON Lines)");
  });
});

describe("flags a command does not honour", () => {
  it.each(["retry", "rejudge"])(
    "%s: its --help does not offer --new, and --new is refused naming it",
    async (command) => {
      const help = await runCli([command, "--help"]);
      expect(help.stdout).toContain("--run <dir>");
      expect(help.stdout).not.toContain("--new");
      const refused = await runCli([command, "eval_1", "--new", "--benchmark", await writeTree(minimalBenchmark())]);
      expect(refused.exitCode).toBe(2);
      expect(refused.stderr).toMatch(
        new RegExp(`^error OE_USAGE: ${command} does not take --new; the options it takes are listed below\\n`),
      );
    },
  );
});
