// Harbor's Agent Trajectory Interchange Format (ATIF v1.4, Harbor RFC 0001), written from the RFC's tables as zod: the
// shape `openeval export --format atif` writes and its tests validate. Strict objects: a field the RFC does not name
// belongs in an `extra` object. Cross-field rules the RFC states (sequential step ids, agent-only fields, observation
// results that point at a tool call of their step) are checked too.
import * as z from "zod";

export const ATIF_SCHEMA_VERSION = "ATIF-v1.4";

const count = z.number().int().nonnegative();
const extra = z.record(z.string(), z.unknown()).optional();
const isoTimestamp = z.string().refine((value) => !Number.isNaN(Date.parse(value)) && /^\d{4}-\d\d-\d\dT/.test(value), {
  message: "an ISO 8601 timestamp",
});

export const AtifAgentSchema = z.strictObject({
  name: z.string().min(1),
  version: z.string().min(1),
  model_name: z.string().optional(),
  extra,
});

export const AtifToolCallSchema = z.strictObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  /** A JSON object; `{}` when the call took no arguments. */
  arguments: z.record(z.string(), z.unknown()),
});

export const AtifSubagentTrajectoryRefSchema = z.strictObject({
  session_id: z.string().min(1),
  trajectory_path: z.string().optional(),
  extra,
});

export const AtifObservationResultSchema = z.strictObject({
  source_call_id: z.string().nullable().optional(),
  content: z.string().optional(),
  subagent_trajectory_ref: z.array(AtifSubagentTrajectoryRefSchema).optional(),
});

export const AtifObservationSchema = z.strictObject({ results: z.array(AtifObservationResultSchema) });

export const AtifMetricsSchema = z.strictObject({
  prompt_tokens: count.optional(),
  completion_tokens: count.optional(),
  /** A subset of prompt_tokens. */
  cached_tokens: count.optional(),
  cost_usd: z.number().nonnegative().optional(),
  prompt_token_ids: z.array(z.number().int()).optional(),
  completion_token_ids: z.array(z.number().int()).optional(),
  logprobs: z.array(z.number()).optional(),
  extra,
});

export const AtifStepSchema = z
  .strictObject({
    step_id: z.number().int().min(1),
    timestamp: isoTimestamp.optional(),
    source: z.enum(["system", "user", "agent"]),
    model_name: z.string().optional(),
    reasoning_effort: z.union([z.string(), z.number()]).optional(),
    /** Required, may be "". */
    message: z.string(),
    reasoning_content: z.string().optional(),
    tool_calls: z.array(AtifToolCallSchema).optional(),
    observation: AtifObservationSchema.optional(),
    metrics: AtifMetricsSchema.optional(),
    extra,
  })
  .superRefine((step, context) => {
    if (step.source === "agent") return;
    for (const field of ["model_name", "reasoning_effort", "reasoning_content", "tool_calls", "metrics"] as const)
      if (step[field] !== undefined)
        context.addIssue({ code: "custom", path: [field], message: `${field} is only for agent steps` });
  });

export const AtifFinalMetricsSchema = z.strictObject({
  total_prompt_tokens: count.optional(),
  total_completion_tokens: count.optional(),
  total_cached_tokens: count.optional(),
  total_cost_usd: z.number().nonnegative().optional(),
  total_steps: count.optional(),
  extra,
});

export const AtifTrajectorySchema = z
  .strictObject({
    schema_version: z.literal(ATIF_SCHEMA_VERSION),
    session_id: z.string().min(1),
    agent: AtifAgentSchema,
    steps: z.array(AtifStepSchema),
    notes: z.string().optional(),
    final_metrics: AtifFinalMetricsSchema.optional(),
    extra,
  })
  .superRefine((trajectory, context) => {
    for (const [index, step] of trajectory.steps.entries()) {
      if (step.step_id !== index + 1)
        context.addIssue({
          code: "custom",
          path: ["steps", index, "step_id"],
          message: `step ids run 1, 2, 3…: expected ${index + 1}, got ${step.step_id}`,
        });
      const calls = new Set((step.tool_calls ?? []).map((call) => call.tool_call_id));
      for (const [resultIndex, result] of (step.observation?.results ?? []).entries())
        if (typeof result.source_call_id === "string" && !calls.has(result.source_call_id))
          context.addIssue({
            code: "custom",
            path: ["steps", index, "observation", "results", resultIndex, "source_call_id"],
            message: `${result.source_call_id} is not a tool_call_id of this step`,
          });
    }
  });

export type AtifTrajectory = z.infer<typeof AtifTrajectorySchema>;
export type AtifStep = z.infer<typeof AtifStepSchema>;
export type AtifToolCall = z.infer<typeof AtifToolCallSchema>;
export type AtifMetrics = z.infer<typeof AtifMetricsSchema>;
export type AtifObservationResult = z.infer<typeof AtifObservationResultSchema>;
