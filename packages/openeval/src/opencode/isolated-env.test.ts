import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, test } from "vitest";
import { prepareIsolation } from "./isolated-env.ts";

let scratch: string;
beforeEach(async () => {
  scratch = await mkdtemp(join(tmpdir(), "openeval-isolation-"));
});
afterEach(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe("prepareIsolation", () => {
  test("every OpenCode location lives under the scratch dir, and the DB is pinned", async () => {
    const { env, paths } = await prepareIsolation(scratch);
    for (const name of ["HOME", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME", "TMPDIR"]) {
      expect(env[name]?.startsWith(scratch + "/"), name).toBe(true);
    }
    expect(env.OPENCODE_DB).toBe(join(scratch, "data", "opencode", "opencode.db"));
    expect(paths.database).toBe(env.OPENCODE_DB);
    expect(env.OPENCODE_TEST_MANAGED_CONFIG_DIR?.startsWith(scratch + "/")).toBe(true);
  });

  test("nothing from the parent environment passes (env -i style)", async () => {
    process.env.OPENEVAL_LEAK_PROBE = "should-not-pass";
    try {
      const { env } = await prepareIsolation(scratch);
      expect(Object.values(env)).not.toContain("should-not-pass");
      expect(env.PATH).toBe("/usr/local/bin:/usr/bin:/bin");
      const allowed =
        /^(PATH|HOME|TMPDIR|XDG_(DATA|CONFIG|CACHE|STATE)_HOME|OPENCODE_DB|OPENCODE_TEST_MANAGED_CONFIG_DIR|OPENCODE_DISABLE_[A-Z_]+)$/;
      for (const name of Object.keys(env)) expect(name).toMatch(allowed);
    } finally {
      delete process.env.OPENEVAL_LEAK_PROBE;
    }
  });

  test("sets the offline and no-leak flags", async () => {
    const { env } = await prepareIsolation(scratch);
    for (const flag of [
      "MODELS_FETCH",
      "AUTOUPDATE",
      "LSP_DOWNLOAD",
      "SHARE",
      "DEFAULT_PLUGINS",
      "CLAUDE_CODE",
      "EXTERNAL_SKILLS",
    ]) {
      expect(env[`OPENCODE_DISABLE_${flag}`], flag).toBe("1");
    }
  });

  test("pre-seeds the config dir so the background plugin install is skipped", async () => {
    const { paths } = await prepareIsolation(scratch);
    const dir = join(paths.config, "opencode");
    expect(await readdir(join(dir, "node_modules"))).toEqual([]);
    const pkg = JSON.parse(await readFile(join(dir, "package.json"), "utf8"));
    const lock = JSON.parse(await readFile(join(dir, "package-lock.json"), "utf8"));
    expect(Object.keys(pkg.dependencies)).toEqual(["@opencode-ai/plugin"]);
    expect(Object.keys(lock.packages[""].dependencies)).toEqual(["@opencode-ai/plugin"]);
  });

  test("is idempotent: a second call returns the same environment", async () => {
    const first = await prepareIsolation(scratch);
    const second = await prepareIsolation(scratch);
    expect(second).toEqual(first);
  });
});
