// The early check's `continue_judging` tool (earlyStop): the judge says the candidate must keep running,
// and why. It ends the check; the harness checks again on a later snapshot or grades the finished run.
import * as z from "zod";
import { writeJsonAtomic } from "../../util/files.ts";
import { describeZodIssues } from "../../util/zod-issues.ts";
import type { JudgeRequest } from "./judge-request.ts";
import type { McpTool } from "./mcp-stdio.ts";
import { ContinueArgsSchema } from "./schema.ts";

export const CONTINUE_TOOL = "continue_judging";
const CONTINUED_TEXT =
  '{"continued":true} The candidate keeps running; this check is over. Reply with one short line and stop.';

/** @example const tool = createContinueTool(request, { continueFile: "/tmp/j/continue.json" }); */
export function createContinueTool(request: JudgeRequest, options: { continueFile: string }): McpTool {
  const schema = z.toJSONSchema(ContinueArgsSchema, { target: "draft-7" }) as Record<string, unknown>;
  return {
    name: CONTINUE_TOOL,
    description:
      "Early checks only: end this check without a judgment because at least one criterion is not yet decided irreversibly. " +
      "Give the reason (which criterion is open and what could still change it). The candidate keeps running.",
    inputSchema: schema,
    async call(raw) {
      const closed = request.closedBy();
      if (closed)
        return { text: `${CONTINUE_TOOL} rejected: ${closed}. Do not call any judge tool again.`, isError: true };
      const parsed = ContinueArgsSchema.safeParse(raw);
      const problems = parsed.success
        ? parsed.data.reason.trim() === ""
          ? ["reason is empty; say which criterion is still open"]
          : []
        : describeZodIssues(parsed.error);
      if (!parsed.success || problems.length > 0) {
        return {
          text: `${CONTINUE_TOOL} rejected:\n${problems.map((problem) => `- ${problem}`).join("\n")}`,
          isError: true,
        };
      }
      await writeJsonAtomic(options.continueFile, parsed.data);
      request.close("this check already ended with continue_judging");
      return { text: CONTINUED_TEXT, isError: false };
    },
  };
}
