// The external shapes this package reads, as zod schemas: control files (`evals/<id>/controls/<name>.json`)
// and the body of an OpenAI-compatible chat-completions request. Types come from z.infer.
import * as z from "zod";

const nonBlank = z.string().refine((s) => s.trim() !== "", { message: "must not be empty" });

const ToolCallSchema = z.strictObject({
  name: z.string().min(1),
  input: z.record(z.string(), z.unknown()),
});

const TurnSchema = z
  .strictObject({
    text: z.string().optional(),
    reasoning: z.string().optional(),
    tools: z.array(ToolCallSchema).min(1).optional(),
    delayMs: z.number().nonnegative().optional(),
    usage: z.strictObject({ input: z.number().int().nonnegative(), output: z.number().int().nonnegative() }).optional(),
    /** `length`: the answer was cut at the output limit (the turn's text is what made it out). */
    finishReason: z.literal("length").optional(),
    error: z
      .strictObject({
        status: z.number().int().min(400).max(599),
        message: z.string().min(1).optional(),
        /** The JSON body to answer with, verbatim (a real provider's error shape); default: an OpenAI error body. */
        body: z.unknown().optional(),
      })
      .optional(),
    /**
     * The first `times` requests of this step (per session) fail with this retryable HTTP error before the turn is
     * played: a provider's transient failure, which OpenCode retries (up to 5 times).
     */
    failFirst: z
      .strictObject({
        times: z.number().int().min(1).max(5),
        status: z.union([z.literal(429), z.number().int().min(500).max(599)], {
          error: "must be 429 or 5xx (a status OpenCode retries)",
        }),
        message: z.string().min(1).optional(),
      })
      .optional(),
  })
  .refine((turn) => turn.error === undefined || turn.failFirst === undefined, {
    message: "an error turn always fails: failFirst belongs on a turn that answers",
    path: ["failFirst"],
  })
  .refine(
    (turn) =>
      turn.error === undefined ||
      (turn.text === undefined &&
        turn.reasoning === undefined &&
        turn.tools === undefined &&
        turn.usage === undefined &&
        turn.finishReason === undefined),
    {
      message: "an error turn answers with an HTTP error only: remove text, reasoning, tools, usage and finishReason",
      path: ["error"],
    },
  )
  .refine((turn) => turn.error?.body === undefined || turn.error.message === undefined, {
    message: "an error turn gives either `message` (an OpenAI error body) or `body` (sent verbatim), not both",
    path: ["error"],
  })
  .refine((turn) => turn.finishReason === undefined || turn.tools === undefined, {
    message: 'a turn cut at the output limit (finishReason "length") has no tool calls',
    path: ["finishReason"],
  });

const VerdictEntrySchema = z.strictObject({
  value: z.union([z.boolean(), z.number(), z.null()], { error: "must be true, false, a finite number or null" }),
  reason: nonBlank,
});

/** A control file: the scripted turns of one control model, plus the verdicts a scripted judge declares. */
export const ControlFileSchema = z.strictObject({
  turns: z.array(TurnSchema).min(1),
  verdict: z.record(z.string().min(1), VerdictEntrySchema).optional(),
  /**
   * What a scripted judge variant `control/judge#<name>` submits instead, criterion by criterion (the rest as in
   * `verdict`): judges that disagree make a panel testable offline.
   */
  judges: z
    .record(
      z.string().regex(/^[\w.-]+$/, { message: "must be letters, digits, '.', '_' or '-'" }),
      z.record(z.string().min(1), VerdictEntrySchema),
    )
    .optional(),
  /**
   * What the scripted judge answers in an early check (earlyStop) of this control's run: "decide" submits the
   * verdict (the run is stopped), "continue" waits for the finished run. Default: decide when no value is null.
   */
  earlyCheck: z.enum(["decide", "continue"]).optional(),
  /**
   * A provider's rate limit: while `concurrent` requests of this control (any session, any eval) are being answered,
   * more are answered `status` (429, or 503 for an overloaded provider) with a `retry-after` header, which OpenCode
   * honours before its retry.
   */
  rateLimit: z
    .strictObject({
      concurrent: z.number().int().min(1),
      /** Seconds, sent as the `retry-after` header. */
      retryAfter: z.number().nonnegative(),
      status: z.union([z.literal(429), z.literal(503)], { error: "must be 429 or 503" }).optional(),
      message: z.string().min(1).optional(),
    })
    .optional(),
});

export type ControlFile = z.infer<typeof ControlFileSchema>;
export type ControlTurn = z.infer<typeof TurnSchema>;

/** The part of an OpenAI chat-completions request body the server reads; other keys are ignored. */
export const ChatRequestSchema = z.object({
  model: z.string(),
  messages: z.array(z.looseObject({ role: z.string() })),
  tools: z.array(z.unknown()).optional(),
  stream: z.boolean().optional(),
});

export type ChatRequest = z.infer<typeof ChatRequestSchema>;
