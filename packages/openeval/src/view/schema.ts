// The viewer's HTTP parameters, validated at the boundary: ids, pages, filters, file paths.
import * as z from "zod";
import { EVAL_RUN_STATES } from "../records/index.ts";
import { EVAL_RUN_SORTS } from "./api-types.ts";
import { CHANGE_STATUSES } from "./compare-table.ts";
import { CHANGE_SORTS } from "./compare-types.ts";

/** Run, eval run and judge run ids: letters, digits and `._:-` (never a path). */
export const IdSchema = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9._:-]+$/, "an id has only letters, digits and . _ : -")
  .refine((id) => id !== "." && id !== "..", "not an id");

const offset = z.coerce.number().int().min(0).default(0);
const limit = (max: number, fallback: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export const PageQuerySchema = z.object({ offset, limit: limit(500, 100) });

export const EvalRunQuerySchema = z.object({
  offset,
  limit: limit(500, 100),
  eval: IdSchema.optional(),
  model: z.string().min(1).max(300).optional(),
  candidate: z.string().min(1).max(400).optional(),
  state: z.enum(EVAL_RUN_STATES).optional(),
  sort: z.enum(EVAL_RUN_SORTS).optional(),
  desc: z.enum(["0", "1"]).optional(),
});

export const TranscriptQuerySchema = z.object({ session: IdSchema.optional(), offset, limit: limit(200, 50) });

export const LocateQuerySchema = z.object({ id: IdSchema });

export const FileQuerySchema = z.object({
  path: z.string().min(1).max(1_000),
  revision: z.enum(["initial", "final"]).default("final"),
});

export const PathQuerySchema = z.object({ path: z.string().min(1).max(1_000) });

/** /api/compare: side a (a run id, or "baseline"), side b (a run id), and optionally one model of each. */
export const CompareQuerySchema = z.object({
  a: IdSchema,
  b: IdSchema,
  ma: z.string().min(1).max(300).optional(),
  mb: z.string().min(1).max(300).optional(),
});

/** /api/compare/changes: the comparison, which of its model pairs (a position in `pairs`), and a page of its changes. */
export const CompareChangesQuerySchema = CompareQuerySchema.extend({
  pair: z.coerce.number().int().min(0).default(0),
  offset,
  limit: limit(500, 100),
  sort: z.enum(CHANGE_SORTS).optional(),
  desc: z.enum(["0", "1"]).optional(),
  status: z.enum(CHANGE_STATUSES).optional(),
});
