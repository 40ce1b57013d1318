// Grades the fix from the recording: what changed in the workspace, and what the agent ran.
import type { JudgeContext } from "openeval";

export const criteria = {
  fixed: "slugify.js replaces every run of separators, not just the first",
  focused_change: "Only slugify.js changed; the test is untouched",
  verified: "The agent ran the tests after its last edit and they passed",
};

export default async ({ workspace, recording }: JudgeContext) => {
  const diff = await workspace.patches();
  const source = await workspace.text("slugify.js");
  const fixed = /replace\(\/\[\^a-z0-9\]\+\/g,\s*"-"\)/.test(source);

  const tools = recording.tools();
  const lastEdit = tools.findLastIndex((tool) => tool.name === "edit" || tool.name === "write");
  const testRuns = tools.slice(lastEdit + 1).filter((tool) => tool.name === "bash" && String((tool.input as { command?: string })?.command ?? "").includes("node --test"));
  const passed = testRuns.some((tool) => tool.status === "succeeded" && /# fail 0/.test(tool.content ?? ""));

  return {
    scores: {
      fixed,
      focused_change: diff.length > 0 && diff.every((file) => file.path === "slugify.js"),
      verified: lastEdit >= 0 && passed,
    },
    changedFiles: diff.map((file) => file.path),
    testRunsAfterLastEdit: testRuns.length,
  };
};
