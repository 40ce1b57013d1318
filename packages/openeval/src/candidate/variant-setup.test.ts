import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { CURRENT_VARIANT } from "../load/index.ts";
import { layVariant, VARIANT_AGENT, variantConfig } from "./variant-setup.ts";

const terse = {
  name: "terse",
  instructions: "Be terse.\n",
  agent: { prompt: "You are strict.", steps: 4, mode: "subagent" },
  config: { tools: { webfetch: false }, agent: { build: { steps: 9 } } },
  files: { "workspace/.opencode/skills/plan/SKILL.md": "skill\n", "config/command/go.md": "go\n" },
};

describe("variant setup", () => {
  it("lays instructions as the global AGENTS.md and files into the workspace or the OpenCode config dir", async () => {
    const root = await makeTempDir();
    const places = { workspace: join(root, "workspace"), configDir: join(root, "config", "opencode") };
    await layVariant(terse, places);
    expect(await readFile(join(places.configDir, "AGENTS.md"), "utf8")).toBe("Be terse.\n");
    expect(await readFile(join(places.workspace, ".opencode/skills/plan/SKILL.md"), "utf8")).toBe("skill\n");
    expect(await readFile(join(places.configDir, "command/go.md"), "utf8")).toBe("go\n");
    // Seeded as the global config dir is, so OpenCode starts no plugin install into the workspace's .opencode/.
    expect(JSON.parse(await readFile(join(places.workspace, ".opencode/package-lock.json"), "utf8"))).toMatchObject({
      lockfileVersion: 3,
    });
  });

  it("overlays the config under the harness's keys and runs the variant's agent as a primary agent", () => {
    const harness = { provider: { p: { options: {} } } };
    expect(variantConfig(CURRENT_VARIANT, harness)).toEqual({ config: harness });
    expect(variantConfig(terse, harness)).toEqual({
      config: {
        tools: { webfetch: false },
        provider: harness.provider,
        agent: { build: { steps: 9 }, [VARIANT_AGENT]: { prompt: "You are strict.", steps: 4, mode: "primary" } },
      },
      agent: VARIANT_AGENT,
    });
  });
});
