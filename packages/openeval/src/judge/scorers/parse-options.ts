// Scorer options are author input: checked with zod at the call, so a typo is an error naming the scorer and key.
import type * as z from "zod";
import { describeZodIssues } from "../../util/zod-issues.ts";
import { ScorerError } from "./errors.ts";

export function parseOptions<Schema extends z.ZodType>(
  scorer: string,
  schema: Schema,
  options: unknown,
): z.output<Schema> {
  const parsed = schema.safeParse(options ?? {});
  if (!parsed.success) {
    throw new ScorerError("optionsInvalid", { scorer, problems: describeZodIssues(parsed.error) });
  }
  return parsed.data;
}
