// The recording as Harbor's trajectory format (ATIF, atif-schema.ts): one trajectory per OpenCode session, each
// message a step, each tool part a tool call with its observation, each step's usage its metrics. What maps where,
// and what has no place on either side: docs/guide/atif.md.
import type { JudgeContext } from "./judge-context.ts";
import type { NativeMessage, NativeSession } from "./native-archive.ts";
import { runTotals, sessionTotals, stepMetrics } from "./atif-metrics.ts";
import {
  ATIF_SCHEMA_VERSION,
  type AtifObservationResult,
  type AtifStep,
  type AtifToolCall,
  type AtifTrajectory,
} from "./atif-schema.ts";

export interface AtifTrajectories {
  /** The root session's (or, for constructed evidence, the recorded prompt, tools and answer). */
  root: AtifTrajectory;
  /** One per subagent session, each referenced from the task call that started it. */
  subagents: { sessionID: string; path: string; trajectory: AtifTrajectory }[];
}

export interface AtifOptions {
  /** Where a subagent's trajectory is written, relative to the root's: its `trajectory_path`. */
  subagentPath?: (sessionID: string) => string;
}

type Part = NativeMessage["parts"][number];

/**
 * @example
 * await using ctx = await readRecording(runDirectory, evalRunId);
 * const { root, subagents } = await toAtifTrajectories(ctx);
 */
export async function toAtifTrajectories(ctx: JudgeContext, options: AtifOptions = {}): Promise<AtifTrajectories> {
  const rootID = ctx.recording.sessionID;
  if (rootID === null) return { root: constructedTrajectory(ctx), subagents: [] };
  const subagentPath = options.subagentPath ?? ((id: string) => `subagents/${id}.json`);
  const sessions = await ctx.recording.sessions();
  const children = sessions.filter((session) => session.id !== rootID && sessionTree(sessions, rootID).has(session.id));
  const linkable = new Map(children.map((session) => [session.id, subagentPath(session.id)]));
  const rootSteps = toSteps(await ctx.recording.messages(rootID), linkable, ctx.prompt);
  const subagents = [];
  for (const session of children) {
    const steps = toSteps(await ctx.recording.messages(session.id), linkable, null);
    subagents.push({
      sessionID: session.id,
      path: linkable.get(session.id)!,
      trajectory: trajectory(ctx, session.id, steps, sessionTotals(session, steps), {
        parent_session_id: session.parentID,
        title: session.title,
      }),
    });
  }
  return {
    root: trajectory(ctx, rootID, rootSteps, runTotals(ctx, rootSteps.length), {
      ...runFacts(ctx),
      subagent_sessions: children.map((session) => ({
        session_id: session.id,
        trajectory_path: subagentPath(session.id),
      })),
    }),
    subagents,
  };
}

/** Sessions that descend from the root, the root included. */
function sessionTree(sessions: readonly NativeSession[], rootID: string): Set<string> {
  const tree = new Set([rootID]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const session of sessions)
      if (session.parentID !== null && tree.has(session.parentID) && !tree.has(session.id)) {
        tree.add(session.id);
        grew = true;
      }
  }
  return tree;
}

function trajectory(
  ctx: JudgeContext,
  sessionID: string,
  steps: AtifStep[],
  finalMetrics: AtifTrajectory["final_metrics"],
  openeval: Record<string, unknown>,
): AtifTrajectory {
  return {
    schema_version: ATIF_SCHEMA_VERSION,
    session_id: sessionID,
    agent: {
      name: "opencode",
      version: ctx.native.version ?? "unknown",
      ...(ctx.run ? { model_name: ctx.run.slot.model } : {}),
      extra: { harness: "openeval", harness_version: ctx.native.readerVersion },
    },
    steps,
    notes:
      "Written by openeval from its recording of an OpenCode session: one step per message, tool parts as tool calls " +
      "with their outputs as observations. openeval's own fields are under extra.openeval.",
    final_metrics: finalMetrics,
    extra: { openeval: openeval },
  };
}

/** The eval run's identity and outcome, on the root trajectory. */
function runFacts(ctx: JudgeContext): Record<string, unknown> {
  const run = ctx.run;
  return {
    ...(run
      ? {
          run_id: run.runId,
          eval_run_id: run.id,
          eval_id: run.slot.evalId,
          ...(run.slot.case === undefined ? {} : { case_id: run.slot.case }),
          model: run.slot.model,
          variant: run.slot.variant,
          repetition: run.slot.repetition,
          state: run.state,
        }
      : {}),
    evidence_hash: ctx.recording.evidence.hash,
    coverage: ctx.recording.coverage,
    prompt: ctx.prompt,
    final_answer: ctx.response.text,
  };
}

function toSteps(
  messages: readonly NativeMessage[],
  subagents: Map<string, string>,
  prompt: string | null,
): AtifStep[] {
  const steps: Omit<AtifStep, "step_id">[] = [];
  // A session that failed before OpenCode stored the prompt still shows what the candidate was asked.
  if (prompt !== null && messages[0]?.info.role !== "user") steps.push({ source: "user", message: prompt });
  for (const message of messages)
    steps.push(message.info.role === "assistant" ? agentStep(message, subagents) : userStep(message));
  return steps.map((step, index) => ({ step_id: index + 1, ...step }) as AtifStep);
}

function userStep(message: NativeMessage): Omit<AtifStep, "step_id"> {
  return {
    ...timestamp(message),
    source: message.info.role === "user" ? "user" : "system",
    message: visibleText(message.parts, "text"),
    extra: { openeval: { message_id: message.info.id, ...unmappedParts(message.parts) } },
  };
}

function agentStep(message: NativeMessage, subagents: Map<string, string>): Omit<AtifStep, "step_id"> {
  const info = message.info;
  const tools = message.parts.filter((part) => part.type === "tool");
  const reasoning = visibleText(message.parts, "reasoning");
  const metrics = stepMetrics(info);
  const model =
    typeof info.providerID === "string" && typeof info.modelID === "string"
      ? `${info.providerID}/${info.modelID}`
      : undefined;
  return {
    ...timestamp(message),
    source: "agent",
    ...(model ? { model_name: model } : {}),
    message: visibleText(message.parts, "text"),
    ...(reasoning ? { reasoning_content: reasoning } : {}),
    ...(tools.length > 0
      ? {
          tool_calls: tools.map(toToolCall),
          observation: { results: tools.map((part) => toObservation(part, subagents)) },
        }
      : {}),
    ...(metrics ? { metrics } : {}),
    extra: {
      openeval: {
        message_id: info.id,
        ...(typeof info.finish === "string" ? { finish: info.finish } : {}),
        ...(info.error ? { error: info.error } : {}),
        ...(info.summary === true ? { compaction_summary: true } : {}),
        ...(tools.length > 0 ? { tool_states: tools.map(toolState) } : {}),
        ...unmappedParts(message.parts),
      },
    },
  };
}

function timestamp(message: NativeMessage): { timestamp?: string } {
  const created = (message.info.time as { created?: unknown } | undefined)?.created;
  return typeof created === "number" ? { timestamp: new Date(created).toISOString() } : {};
}

/** What the message shows: OpenCode's synthetic and ignored parts (its own notes to the model) are left out. */
function visibleText(parts: readonly Part[], type: "text" | "reasoning"): string {
  return parts
    .filter((part) => part.type === type && part.synthetic !== true && part.ignored !== true)
    .map((part) => (typeof part.text === "string" ? part.text : ""))
    .filter((text) => text.length > 0)
    .join("\n\n");
}

/** Part kinds ATIF has no field for (patch, file, snapshot, agent, subtask…), by kind; step-start/-finish repeat the
 * message's own data. */
function unmappedParts(parts: readonly Part[]): { unmapped_parts?: Record<string, number> } {
  const mapped = new Set(["text", "reasoning", "tool", "step-start", "step-finish"]);
  const counts: Record<string, number> = {};
  for (const part of parts) if (!mapped.has(part.type)) counts[part.type] = (counts[part.type] ?? 0) + 1;
  return Object.keys(counts).length > 0 ? { unmapped_parts: counts } : {};
}

interface ToolState {
  status?: string;
  input?: unknown;
  output?: string;
  error?: string;
  title?: string;
  metadata?: unknown;
  time?: { start?: number; end?: number };
}

const stateOf = (part: Part) => (part.state ?? {}) as ToolState;

function toToolCall(part: Part): AtifToolCall {
  const input = stateOf(part).input;
  return {
    tool_call_id: part.id,
    function_name: typeof part.tool === "string" ? part.tool : "unknown",
    // ATIF's arguments are an object; a tool input that is not one (never seen from OpenCode) is kept under `value`.
    arguments:
      input === undefined
        ? {}
        : input !== null && typeof input === "object" && !Array.isArray(input)
          ? (input as Record<string, unknown>)
          : { value: input },
  };
}

function toObservation(part: Part, subagents: Map<string, string>): AtifObservationResult {
  const state = stateOf(part);
  const child = (state.metadata as { sessionId?: unknown } | undefined)?.sessionId;
  const path = typeof child === "string" ? subagents.get(child) : undefined;
  return {
    source_call_id: part.id,
    content: state.output ?? state.error ?? "",
    ...(path && typeof child === "string"
      ? { subagent_trajectory_ref: [{ session_id: child, trajectory_path: path }] }
      : {}),
  };
}

/** OpenCode's state of the call (pending, running, completed, error) and its times: ATIF results carry text only. */
function toolState(part: Part): Record<string, unknown> {
  const state = stateOf(part);
  return {
    tool_call_id: part.id,
    status: state.status ?? "unknown",
    ...(typeof part.callID === "string" ? { provider_call_id: part.callID } : {}),
    ...(state.title ? { title: state.title } : {}),
    ...(state.error !== undefined ? { error: state.error } : {}),
    ...(state.time?.start !== undefined ? { started_at: new Date(state.time.start).toISOString() } : {}),
    ...(state.time?.end !== undefined ? { completed_at: new Date(state.time.end).toISOString() } : {}),
  };
}

/** Constructed evidence (recordEvidence) ran no model: the prompt, one agent step with the recorded tool calls and the
 * answer. */
function constructedTrajectory(ctx: JudgeContext): AtifTrajectory {
  const tools = ctx.recording.tools();
  const agent: Omit<AtifStep, "step_id"> = {
    source: "agent",
    message: ctx.response.text,
    ...(tools.length > 0
      ? {
          tool_calls: tools.map((tool) => ({
            tool_call_id: tool.id,
            function_name: tool.name,
            arguments:
              tool.input !== null && typeof tool.input === "object" && !Array.isArray(tool.input)
                ? (tool.input as Record<string, unknown>)
                : { value: tool.input },
          })),
          observation: {
            results: tools.map((tool) => ({ source_call_id: tool.id, content: tool.content ?? tool.error ?? "" })),
          },
        }
      : {}),
    extra: {
      openeval: {
        constructed: true,
        ...(tools.length > 0
          ? { tool_states: tools.map((tool) => ({ tool_call_id: tool.id, status: tool.status })) }
          : {}),
      },
    },
  };
  const steps = [{ source: "user" as const, message: ctx.prompt }, agent].map(
    (step, index) => ({ step_id: index + 1, ...step }) as AtifStep,
  );
  return trajectory(
    ctx,
    ctx.run?.id ?? `evidence-${ctx.recording.evidence.hash.slice(0, 16)}`,
    steps,
    runTotals(ctx, 2),
    {
      ...runFacts(ctx),
      constructed: true,
    },
  );
}
