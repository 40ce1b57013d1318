// Zod schemas for the external shapes read from OpenCode: the `opencode run --format json` event stream and
// session rows of the native database.

import * as z from "zod";

/**
 * One line of `opencode run --format json` (1.18.33): `{type, timestamp, sessionID, part | error}`.
 * Only the fields the runner acts on are typed; everything else passes through untouched.
 */
export const RunEventSchema = z.looseObject({
  type: z.string(),
  timestamp: z.number().optional(),
  sessionID: z.string().optional(),
  part: z
    .looseObject({
      id: z.string().optional(),
      cost: z.number().optional(),
      /** step_finish: the step's usage as OpenCode computed it. */
      tokens: z
        .looseObject({
          input: z.number().optional(),
          output: z.number().optional(),
          reasoning: z.number().optional(),
          cache: z.looseObject({ read: z.number().optional(), write: z.number().optional() }).optional(),
        })
        .optional(),
      /** tool_use: the tool's name. */
      tool: z.string().optional(),
      reason: z.string().optional(),
      messageID: z.string().optional(),
      /** A text OpenCode wrote itself; with `metadata.compaction_continue` it follows a compaction. */
      synthetic: z.boolean().optional(),
      metadata: z.looseObject({ compaction_continue: z.boolean().optional() }).optional(),
    })
    .optional(),
  error: z
    .looseObject({
      name: z.string().optional(),
      /** `url`: the endpoint, when OpenCode could not reach it. */
      data: z
        .looseObject({
          message: z.string().optional(),
          url: z.string().optional(),
          responseBody: z.string().optional(),
        })
        .optional(),
    })
    .optional(),
});
export type RunEvent = z.infer<typeof RunEventSchema>;

/** `SELECT id, parent_id FROM session` of the native database. */
export const SessionRowSchema = z.object({ id: z.string(), parent_id: z.string().nullable() });
export type SessionRow = z.infer<typeof SessionRowSchema>;
