// Journey: `openeval --version` / `-v` print the harness version and the pinned OpenCode version.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../helpers/cli.ts";

const ROOT = join(import.meta.dirname, "..", "..");
const version = (file: string) => (JSON.parse(readFileSync(join(ROOT, file), "utf8")) as { version: string }).version;

describe("openeval --version", () => {
  it.each(["--version", "-v"])("%s prints both versions and exits 0", async (flag) => {
    const result = await runCli([flag]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(
      `openeval ${version("packages/openeval/package.json")}\nopencode ${version("node_modules/opencode-ai/package.json")} (pinned)\n`,
    );
  });
});
