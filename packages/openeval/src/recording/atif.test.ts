import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { AtifTrajectorySchema, type AtifTrajectory } from "./atif-schema.ts";
import { toAtifTrajectories } from "./atif.ts";
import { openEvidence } from "./evidence-reader.ts";
import { ANSWER, CHILD_SESSION, nativeContext, PROMPT, ROOT_SESSION } from "./fixtures/native-recording.ts";
import { createJudgeContext } from "./judge-context.ts";
import { recordEvidence } from "./record-evidence.ts";

describe("toAtifTrajectories over a recorded OpenCode session", () => {
  it("writes valid ATIF: the prompt, one agent step per model step, then the final answer", async () => {
    await using ctx = await nativeContext();
    const { root, subagents } = await toAtifTrajectories(ctx);
    expect(AtifTrajectorySchema.parse(root)).toEqual(root);
    expect(root.schema_version).toBe("ATIF-v1.4");
    expect(root.session_id).toBe(ROOT_SESSION);
    expect(root.agent).toMatchObject({ name: "opencode", version: ctx.native.version });
    expect(root.steps.map((step) => step.source)).toEqual(["user", "agent", "agent", "agent"]);
    expect(root.steps[0]).toMatchObject({
      step_id: 1,
      source: "user",
      message: PROMPT,
      timestamp: "1970-01-01T00:00:01.000Z",
    });
    expect(root.steps.at(-1)).toMatchObject({ step_id: 4, message: ANSWER });
    // The recording's model steps are the agent steps, the subagent's in its own trajectory.
    const agentSteps = [root, ...subagents.map((subagent) => subagent.trajectory)].flatMap((trajectory) =>
      trajectory.steps.filter((step) => step.source === "agent"),
    );
    expect(agentSteps).toHaveLength(ctx.metrics.requests!.started);
    expect(root.final_metrics?.total_steps).toBe(root.steps.length);
  });

  it("maps text, reasoning, tool calls with their observations, model and usage of a step", async () => {
    await using ctx = await nativeContext();
    const first = (await toAtifTrajectories(ctx)).root.steps[1]!;
    expect(first).toMatchObject({
      source: "agent",
      model_name: "p/m",
      message: "Let me look at the file and run the tests.",
      reasoning_content: "The regex lacks the g flag.",
      tool_calls: [
        { tool_call_id: "prt_t1", function_name: "read", arguments: { filePath: "missing.js" } },
        {
          tool_call_id: "prt_t2",
          function_name: "bash",
          arguments: { command: "node --test", description: "Run the tests" },
        },
      ],
      observation: {
        results: [
          { source_call_id: "prt_t1", content: "File not found: missing.js" },
          { source_call_id: "prt_t2", content: "# fail 1" },
        ],
      },
      // ATIF counts cached input in prompt_tokens and reasoning in completion_tokens.
      metrics: {
        prompt_tokens: 1_000 + 200 + 10,
        completion_tokens: 50 + 20,
        cached_tokens: 200,
        cost_usd: 0.01,
        extra: { reasoning_tokens: 20, cache_write_tokens: 10 },
      },
    });
    // The tool ids are the recording's: a citation of ctx.recording.tools() finds its call in the trajectory.
    expect(ctx.recording.tools().map((tool) => tool.id)).toContain("prt_t2");
    expect((first.extra?.openeval as { tool_states: unknown[] }).tool_states).toEqual([
      expect.objectContaining({ tool_call_id: "prt_t1", status: "error", error: "File not found: missing.js" }),
      expect.objectContaining({ tool_call_id: "prt_t2", status: "completed", title: "Run the tests" }),
    ]);
  });

  it("references the subagent's trajectory from the task call that started it, and counts parts ATIF has no field for", async () => {
    await using ctx = await nativeContext();
    const { root, subagents } = await toAtifTrajectories(ctx);
    const second = root.steps[2]!;
    expect(second.observation?.results[1]).toEqual({
      source_call_id: "prt_t4",
      content: "The README says nothing about the regex.",
      subagent_trajectory_ref: [{ session_id: CHILD_SESSION, trajectory_path: `subagents/${CHILD_SESSION}.json` }],
    });
    expect(second.extra?.openeval).toMatchObject({ unmapped_parts: { patch: 1 } });
    expect(subagents).toHaveLength(1);
    const child = subagents[0]!.trajectory;
    expect(AtifTrajectorySchema.parse(child)).toEqual(child);
    expect(child.session_id).toBe(CHILD_SESSION);
    expect(child.steps.map((step) => [step.source, step.message])).toEqual([
      ["user", "Read README.md"],
      ["agent", "The README says nothing about the regex."],
    ]);
    expect(child.final_metrics).toMatchObject({
      total_prompt_tokens: 300,
      total_completion_tokens: 25,
      total_steps: 2,
    });
  });

  it("puts the eval run's totals (subagents included) and the final answer in the root's final metrics and extra", async () => {
    await using ctx = await nativeContext();
    const { root } = await toAtifTrajectories(ctx);
    const { tokens, cost } = ctx.metrics;
    expect(root.final_metrics).toMatchObject({
      total_prompt_tokens: tokens.input! + tokens.cacheRead! + tokens.cacheWrite!,
      total_completion_tokens: tokens.output! + tokens.reasoning!,
      total_cached_tokens: tokens.cacheRead,
      extra: { includes_subagents: true, model_steps: 4 },
    });
    expect(root.final_metrics?.total_cost_usd).toBeCloseTo(cost.usd!, 9);
    expect(root.extra?.openeval).toMatchObject({ final_answer: ANSWER, prompt: PROMPT });
  });
});

describe("toAtifTrajectories over constructed evidence", () => {
  it("writes the prompt, then one agent step with the recorded tools and the answer, and no usage", async () => {
    const ref = await recordEvidence({
      directory: join(await makeTempDir(), "evidence"),
      prompt: "Reply with APPLE.",
      response: "APPLE",
      tools: [{ name: "bash", input: "echo", error: "denied" }],
    });
    await using ctx = await createJudgeContext(await openEvidence(ref.directory, ref.hash), null);
    const { root, subagents } = await toAtifTrajectories(ctx);
    expect(subagents).toEqual([]);
    expect(AtifTrajectorySchema.parse(root)).toEqual(root);
    expect(root.steps).toMatchObject([
      { step_id: 1, source: "user", message: "Reply with APPLE." },
      {
        step_id: 2,
        source: "agent",
        message: "APPLE",
        tool_calls: [{ tool_call_id: "tool_1", function_name: "bash", arguments: { value: "echo" } }],
        observation: { results: [{ source_call_id: "tool_1", content: "denied" }] },
      },
    ]);
    expect(root.final_metrics).toEqual(expect.not.objectContaining({ total_prompt_tokens: expect.anything() }));
  });
});

describe("AtifTrajectorySchema", () => {
  const valid: AtifTrajectory = {
    schema_version: "ATIF-v1.4",
    session_id: "s",
    agent: { name: "a", version: "1" },
    steps: [
      { step_id: 1, source: "user", message: "hi" },
      {
        step_id: 2,
        source: "agent",
        message: "",
        tool_calls: [{ tool_call_id: "c1", function_name: "f", arguments: {} }],
        observation: { results: [{ source_call_id: "c1", content: "ok" }] },
      },
    ],
  };
  const problems = (value: unknown) =>
    AtifTrajectorySchema.safeParse(value).error?.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);

  it("accepts the RFC's shape and refuses what the RFC rules out", () => {
    expect(problems(valid)).toBeUndefined();
    expect(problems({ ...valid, steps: [{ ...valid.steps[0], step_id: 2 }] })).toEqual([
      "steps.0.step_id: step ids run 1, 2, 3…: expected 1, got 2",
    ]);
    expect(problems({ ...valid, steps: [{ ...valid.steps[0], model_name: "m" }] })).toEqual([
      "steps.0.model_name: model_name is only for agent steps",
    ]);
    const orphan = structuredClone(valid);
    orphan.steps[1]!.observation!.results[0]!.source_call_id = "c2";
    expect(problems(orphan)).toEqual([
      "steps.1.observation.results.0.source_call_id: c2 is not a tool_call_id of this step",
    ]);
    expect(problems({ ...valid, schema_version: "ATIF-v9" })?.[0]).toMatch(/^schema_version/);
    expect(problems({ ...valid, unknown_field: 1 })?.[0]).toMatch(/unknown_field/);
  });
});
