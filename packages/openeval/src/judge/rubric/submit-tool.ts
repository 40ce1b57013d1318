// The judge's `submit_judgment` tool: validates a judgment (exact criteria, credits, reasons, citations checked
// against the recording), lists every problem as a tool error, and writes the first valid one atomically.
import * as z from "zod";
import type { JudgeContext } from "../../recording/index.ts";
import { writeJsonAtomic } from "../../util/files.ts";
import { describeZodIssues } from "../../util/zod-issues.ts";
import { createCitationChecker } from "./check-citations.ts";
import type { JudgeRequest } from "./judge-request.ts";
import type { McpTool, ToolAnswer } from "./mcp-stdio.ts";
import { type JudgePhase, ScoreSchema, SubmitArgsSchema, type Submission } from "./schema.ts";

export const SUBMIT_TOOL = "submit_judgment";
export const ACCEPTED_TEXT = '{"accepted":true} Judgment recorded. Reply with one short line and stop.';

export interface SubmitToolOptions {
  criteria: readonly string[];
  submissionFile: string;
  phase: JudgePhase;
}

/**
 * @example
 * const request = openJudgeRequest(job);
 * const tool = createSubmitTool(context, request, { criteria: ["correct"], submissionFile: "/tmp/j/submission.json", phase: "final" });
 */
export function createSubmitTool(context: JudgeContext, request: JudgeRequest, options: SubmitToolOptions): McpTool {
  const citations = createCitationChecker(context);
  const early = options.phase === "early";
  return {
    name: SUBMIT_TOOL,
    description: [
      early
        ? "Submit your judgment only if every criterion is already decided irreversibly (nothing the still-running candidate does next can change it), with a score for every criterion:"
        : "Submit your judgment, once, with a score for every criterion:",
      early
        ? "value (true/false, or a number from 0 to 1; null is not allowed in an early check: call continue_judging instead),"
        : "value (true/false, a number from 0 to 1 for partial credit, or null when the evidence cannot decide),",
      "reason (non-empty), and evidence: citations {kind, id?, path?, revision?, quote?} of the recording.",
      'kind "response" (the final answer); "message" (id: a message or part id); "tool" (id: a tool call id);',
      '"event" (id: <sessionID>#<sequence>); "metric" (id: a path such as tools.errorRate); "file" (path, optional revision).',
      "A quote must be copied exactly from the cited item. An invalid judgment comes back as an error listing every",
      `problem; fix them and call again. Required criteria: ${options.criteria.join(", ")}.`,
    ].join(" "),
    inputSchema: submissionJsonSchema(options.criteria),
    async call(raw) {
      const closed = request.closedBy();
      if (closed) return reject([`${closed}; nothing more is accepted. Do not call any judge tool again`], false);
      const parsed = SubmitArgsSchema.safeParse(raw);
      if (!parsed.success) return reject(describeZodIssues(parsed.error));
      const problems = await validate(parsed.data, options.criteria, (citation, at) => citations.check(citation, at));
      if (early) problems.push(...undecided(parsed.data, options.criteria));
      if (problems.length > 0) return reject(problems);
      await writeJsonAtomic(options.submissionFile, parsed.data);
      request.close("a judgment was already accepted");
      return { text: ACCEPTED_TEXT, isError: false };
    },
  };
}

async function validate(
  submission: Submission,
  criteria: readonly string[],
  checkCitation: (citation: Submission["scores"][string]["evidence"][number], at: string) => Promise<string[]>,
): Promise<string[]> {
  const given = Object.keys(submission.scores);
  const missing = criteria.filter((id) => !given.includes(id));
  const unknown = given.filter((id) => !criteria.includes(id));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`missing criteria: ${missing.join(", ")}`);
  if (unknown.length > 0)
    problems.push(`unknown criteria: ${unknown.join(", ")} (score exactly: ${criteria.join(", ")})`);
  for (const id of given.filter((candidate) => criteria.includes(candidate))) {
    const score = submission.scores[id]!;
    const at = `scores.${id}`;
    const { value } = score;
    if (typeof value === "number" && !(Number.isFinite(value) && value >= 0 && value <= 1)) {
      problems.push(
        `${at}.value must be true, false, null, or a number from 0 to 1 (got ${value}); nothing is clamped`,
      );
    }
    if (score.reason.trim() === "") problems.push(`${at}.reason is empty; say why, grounded in the evidence`);
    if (value !== null && score.evidence.length === 0) {
      problems.push(`${at}.evidence is empty; cite at least one item of the recording (e.g. {"kind":"response"})`);
    }
    for (const [index, citation] of score.evidence.entries()) {
      problems.push(...(await checkCitation(citation, `${at}.evidence[${index}]`)));
    }
  }
  return problems;
}

/** An early check decides the run: every criterion needs a value now. */
function undecided(submission: Submission, criteria: readonly string[]): string[] {
  const open = criteria.filter((id) => submission.scores[id]?.value === null);
  if (open.length === 0) return [];
  return [
    `${open.map((id) => `scores.${id}.value`).join(", ")} is null: an early check submits only when every criterion is decided irreversibly; if one is still open, call continue_judging instead`,
  ];
}

function reject(problems: string[], fixable = true): ToolAnswer {
  const list = problems.map((problem) => `- ${problem}`).join("\n");
  return {
    text: `submit_judgment rejected:\n${list}${fixable ? "\nFix these and call submit_judgment again." : ""}`,
    isError: true,
  };
}

/** The schema the model sees names every criterion, so a well-behaved model never has to guess the ids. */
function submissionJsonSchema(criteria: readonly string[]): Record<string, unknown> {
  const score = z.toJSONSchema(ScoreSchema, { target: "draft-7" }) as Record<string, unknown>;
  delete score.$schema;
  return {
    $schema: "http://json-schema.org/draft-07/schema#",
    type: "object",
    properties: {
      scores: {
        type: "object",
        description: "criterion id -> { value, reason, evidence }",
        properties: Object.fromEntries(criteria.map((id) => [id, score])),
        required: [...criteria],
        additionalProperties: false,
      },
    },
    required: ["scores"],
    additionalProperties: false,
  };
}
