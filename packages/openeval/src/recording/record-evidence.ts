// recordEvidence(): constructs a recording without calling any model, for calibrating judges.
import { resolve } from "node:path";
import * as z from "zod";
import { describeZodIssues } from "../util/zod-issues.ts";
import { writeEvidence } from "./evidence-writer.ts";
import { measureConstructed } from "./metrics.ts";
import type { EvidenceRef, ToolCall } from "./schema.ts";
import { captureFiles } from "./snapshot.ts";

const ConstructedToolSchema = z.strictObject({
  id: z.string().optional(),
  name: z.string().min(1),
  input: z.unknown().optional(),
  output: z.string().nullable().optional(),
  error: z.string().nullable().optional(),
  status: z.enum(["pending", "running", "completed", "error"]).optional(),
});

export const RecordEvidenceOptionsSchema = z.strictObject({
  directory: z.string().min(1),
  prompt: z.string(),
  response: z.string(),
  tools: z.array(ConstructedToolSchema).optional(),
  workspace: z
    .strictObject({
      initial: z.record(z.string(), z.string()).optional(),
      final: z.record(z.string(), z.string()).optional(),
    })
    .optional(),
});

export type RecordEvidenceOptions = z.input<typeof RecordEvidenceOptionsSchema>;

/**
 * Writes constructed evidence (no model is called) and returns where it is and its identity.
 * @example
 * const evidence = await recordEvidence({ directory: "./controls/apple/evidence", prompt: "Reply with exactly APPLE.", response: "APPLE" });
 */
export async function recordEvidence(options: RecordEvidenceOptions): Promise<EvidenceRef> {
  const parsed = RecordEvidenceOptionsSchema.safeParse(options);
  if (!parsed.success) throw new TypeError(`recordEvidence: ${describeZodIssues(parsed.error).join("; ")}`);
  const input = parsed.data;
  const directory = resolve(input.directory);
  const tools: ToolCall[] = (input.tools ?? []).map((tool, index) => {
    const status = tool.status ?? (tool.error ? "error" : "completed");
    return {
      id: tool.id ?? `tool_${index + 1}`,
      sessionID: null,
      name: tool.name,
      status,
      input: tool.input ?? {},
      output: tool.output ?? null,
      error: tool.error ?? null,
      startedAt: null,
      completedAt: null,
      durationMs: null,
    };
  });
  const initial = input.workspace?.initial ? await captureFiles(input.workspace.initial, directory) : null;
  const final = input.workspace?.final ? await captureFiles(input.workspace.final, directory) : null;
  return writeEvidence(directory, {
    kind: "constructed",
    prompt: input.prompt,
    response: { text: input.response },
    tools,
    initial,
    final,
    events: null,
    native: null,
    metrics: measureConstructed(tools),
  });
}
