import { describe, expect, test } from "vitest";
import { parseModelRef } from "./model-id.ts";
import { buildConfigContent, buildRunArgs, RUN_TITLE } from "./opencode-command.ts";

describe("buildRunArgs", () => {
  test("headless JSON run in the workspace, fixed title, logs and thinking", () => {
    expect(buildRunArgs("/ws", parseModelRef("control/positive"))).toEqual([
      "run",
      "--pure",
      "--format",
      "json",
      "--dir",
      "/ws",
      "-m",
      "control/positive",
      "--title",
      RUN_TITLE,
      "--print-logs",
      "--thinking",
    ]);
  });

  test("#variant becomes --variant, never part of -m", () => {
    const args = buildRunArgs("/ws", parseModelRef("openai/gpt-x#high"));
    expect(args).toContain("openai/gpt-x");
    expect(args.slice(-2)).toEqual(["--variant", "high"]);
  });

  test("an agent variant's agent is selected with --agent", () => {
    expect(buildRunArgs("/ws", parseModelRef("control/positive"), "openeval-variant").slice(-2)).toEqual([
      "--agent",
      "openeval-variant",
    ]);
  });
});

const REACH = { shared: [], private: ["/scratch/opencode"] };

describe("buildConfigContent", () => {
  test("keeps the benchmark's providers and enforces snapshot, share, autoupdate", () => {
    const config = JSON.parse(
      buildConfigContent({ provider: { p: { npm: "x" } }, snapshot: true, share: "auto" }, REACH),
    );
    expect(config).toMatchObject({
      provider: { p: { npm: "x" } },
      snapshot: false,
      share: "disabled",
      autoupdate: false,
    });
  });

  test("no permission resolves to ask: defaults allow, an authored ask becomes deny", () => {
    const config = JSON.parse(
      buildConfigContent({ permission: { bash: { "*": "allow", "rm *": "ask" }, edit: "ask" } }, REACH),
    );
    expect(config.permission).toEqual({
      external_directory: { "*": "deny", "/scratch/opencode/*": "deny", "/proc/*": "deny" },
      doom_loop: "allow",
      read: "allow",
      bash: { "*": "allow", "rm *": "deny" },
      edit: "deny",
    });
    expect(JSON.stringify(config)).not.toContain('"ask"');
  });

  test("does not mutate the caller's config", () => {
    const config = { permission: { edit: "ask" } };
    buildConfigContent(config, REACH);
    expect(config).toEqual({ permission: { edit: "ask" } });
  });

  test("file tools reach outside the workspace only into shared folders, or where the benchmark says; never OpenCode's own files", () => {
    const shared = JSON.parse(buildConfigContent({}, { shared: ["/tmp"], private: ["/home/candidate/opencode"] }));
    expect(shared.permission.external_directory).toEqual({
      "*": "deny",
      "/tmp/*": "allow",
      "/home/candidate/opencode/*": "deny",
      "/proc/*": "deny",
    });
    const authored = JSON.parse(buildConfigContent({ permission: { external_directory: "allow" } }, REACH));
    expect(Object.entries(authored.permission.external_directory)).toEqual([
      ["*", "allow"],
      ["/scratch/opencode/*", "deny"],
      ["/proc/*", "deny"],
    ]);
  });

  test("OpenCode's config folder stays open inside its private one: its own loading of instructions and skills obeys the rule", () => {
    const reach = { shared: [], private: ["/scratch/opencode"], loaded: ["/scratch/opencode/config/opencode"] };
    const config = JSON.parse(buildConfigContent({}, reach));
    // Last match wins: the config folder's allow comes after the private folder's deny.
    expect(Object.entries(config.permission.external_directory)).toEqual([
      ["*", "deny"],
      ["/scratch/opencode/*", "deny"],
      ["/proc/*", "deny"],
      ["/scratch/opencode/config/opencode/*", "allow"],
    ]);
  });
});
