// Renders each kind of candidate evidence as plain text for the judge model: candidate-written text stays verbatim
// (so quotes can be copied exactly), ids are printed where a citation needs them.
import type {
  FileDiff,
  JudgeContext,
  JudgeToolCall,
  NativeMessage,
  RecordedEvent,
  Revision,
} from "../../recording/index.ts";

type Part = NativeMessage["parts"][number];

export function renderSummary(context: JudgeContext, changed: FileDiff[], sessionLines: string[]): string {
  const { metrics } = context;
  const tools = context.recording.tools();
  const failed = tools.filter((tool) => tool.status === "failed").length;
  const unfinished = tools.filter((tool) => tool.status === "preparing" || tool.status === "called").length;
  const lines = [
    describeRecording(context),
    `Final response: ${context.response.text.length} characters (action "response").`,
    sessionLines.length > 0
      ? `Sessions (action "messages", optional sessionID):\n${sessionLines.join("\n")}`
      : "Sessions: none recorded.",
    `Tool calls: ${tools.length} (${failed} failed, ${unfinished} unfinished) (action "tools").`,
    `Workspace: ${context.workspace.files("initial").length} files initially, ${context.workspace.files("final").length} at the end (actions "files", "file", "diff").`,
    changed.length > 0
      ? `Changed files:\n${changed.map((diff) => `  ${diff.path} (${diff.status}, +${diff.additions} -${diff.deletions})`).join("\n")}`
      : "Changed files: none.",
    `Metrics (action "metrics"): cost ${metrics.cost.usd ?? "unknown"} USD, output tokens ${metrics.tokens.output ?? "unknown"}, tool error rate ${metrics.tools.errorRate ?? "n/a"}, elapsed ${metrics.timing.elapsedMs ?? "unknown"} ms.`,
    "",
    "Task prompt the candidate was given:",
    context.prompt,
  ];
  return lines.join("\n");
}

/** The summary's first line: which eval run this is and how it ended, or what kind of evidence has no run. */
function describeRecording(context: JudgeContext): string {
  const { run, metrics } = context;
  if (!run) {
    if (context.native.version) return `A recorded OpenCode ${context.native.version} session (no eval run record).`;
    return "Constructed evidence: no model was run, so there is no native transcript.";
  }
  const control = run.control ? " (scripted control)" : "";
  const elapsed = metrics.timing.elapsedMs === null ? "" : ` taken ${metrics.timing.elapsedMs} ms after it started`;
  const ending =
    run.state === "running"
      ? `still running: this is a snapshot${elapsed}, and what follows it may change the workspace and the answer`
      : `ended ${run.state}${run.error ? ` (${run.error})` : ""}`;
  return `Eval run ${run.id}: model ${run.slot.model}${control}, repetition ${run.slot.repetition}, ${ending}`;
}

export function renderMessages(sessions: { id: string; messages: NativeMessage[] }[]): string {
  if (sessions.every((session) => session.messages.length === 0)) {
    return 'No messages recorded (constructed evidence has no native transcript); read "response" and "tools".';
  }
  return sessions
    .map((session) => [`=== session ${session.id} ===`, ...session.messages.map(renderMessage)].join("\n"))
    .join("\n\n");
}

function renderMessage(message: NativeMessage): string {
  const agent = typeof message.info.agent === "string" ? `, agent ${message.info.agent}` : "";
  return [`--- message ${message.info.id} (${message.info.role}${agent}) ---`, ...message.parts.map(renderPart)].join(
    "\n",
  );
}

/** Exported for citation checks: a part is cited by the same text the model was shown. */
export function renderPart(part: Part): string {
  const head = `[part ${part.id} ${part.type}]`;
  if ((part.type === "text" || part.type === "reasoning") && typeof part.text === "string")
    return `${head}\n${part.text}`;
  if (part.type === "tool") {
    const state = (part.state ?? {}) as Record<string, unknown>;
    return [
      `${head} ${String(part.tool)} ${String(state.status)} (call ${String(part.callID)})`,
      `input: ${JSON.stringify(state.input ?? {})}`,
      ...(typeof state.output === "string" ? [`output:\n${state.output}`] : []),
      ...(typeof state.error === "string" ? [`error:\n${state.error}`] : []),
    ].join("\n");
  }
  const { id: _id, type: _type, ...rest } = part;
  return `${head} ${JSON.stringify(rest)}`;
}

export function renderTools(tools: JudgeToolCall[]): string {
  if (tools.length === 0) return "No tool calls recorded.";
  return tools.map(renderTool).join("\n\n");
}

export function renderTool(tool: JudgeToolCall): string {
  const where = tool.sessionID ? `, session ${tool.sessionID}` : "";
  const took = tool.durationMs === undefined ? "" : `, ${tool.durationMs} ms`;
  return [
    `--- tool ${tool.id}: ${tool.name} (${tool.status}${where}${took}) ---`,
    `input: ${JSON.stringify(tool.input)}`,
    ...(tool.content !== undefined ? [`output:\n${tool.content}`] : []),
    ...(tool.error !== undefined ? [`error:\n${tool.error}`] : []),
  ].join("\n");
}

export function renderEvents(events: RecordedEvent[]): string {
  if (events.length === 0) return "No native events recorded (constructed evidence has none).";
  return events
    .map(
      (event) =>
        `${eventId(event)} ${event.event.type}${event.time === null ? "" : ` @${event.time}`} ${JSON.stringify(event.event.data)}`,
    )
    .join("\n");
}

export function eventId(event: { sessionID: string; sequence: number }): string {
  return `${event.sessionID}#${event.sequence}`;
}

export function renderFiles(context: JudgeContext, revision: Revision): string {
  const files = context.workspace.files(revision);
  if (files.length === 0) return `The ${revision} workspace snapshot has no files.`;
  return files
    .map((entry) =>
      entry.kind === "file" ? `${entry.path}\t${entry.bytes} bytes` : `${entry.path}\t-> ${entry.target} (symlink)`,
    )
    .join("\n");
}

export function renderDiff(diffs: FileDiff[]): string {
  if (diffs.length === 0) return "No changes between the initial and final workspace.";
  return diffs.map((diff) => diff.patch).join("\n");
}
