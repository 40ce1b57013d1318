// A code judge: grades the recording (the final workspace here) with no model, so the same evidence always gets
// the same score. Each criterion is one requirement of the prompt, scored on its own.
import type { JudgeContext } from "openeval";
import { filesChanged } from "openeval/scorers";

export const criteria = {
  fixed_spelling: 'greeting.js greets with "Hello, world!"',
  focused_change: "Only greeting.js changed",
};

export default async (ctx: JudgeContext) => {
  const kept = ctx.workspace.files().some((file) => file.path === "greeting.js");
  const source = kept ? await ctx.workspace.text("greeting.js") : "";
  return {
    scores: {
      fixed_spelling: source.includes('"Hello, world!"'),
      focused_change: await filesChanged(ctx, { only: ["greeting.js"] }),
    },
  };
};
