// Imports an author's settings module (benchmark.ts, eval.ts) freshly and validates its default export.
// These are configuration files: unlike judge.ts, they are meant to be evaluated at load time.
import type { z } from "zod";
import { describeZodIssues } from "../util/zod-issues.ts";

/** The settings did not validate: one message per problem, each naming its key. */
export class ConfigInvalidError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join("; "));
  }
}

export async function importConfig<Schema extends z.ZodType>(file: string, schema: Schema): Promise<z.output<Schema>> {
  delete require.cache[file]; // so an edited file is read again within one process
  let module: { default?: unknown };
  try {
    module = (await import(file)) as { default?: unknown };
  } catch (error) {
    throw new Error(`could not be loaded: ${firstLine(error)}; fix the TypeScript so that it compiles and runs`);
  }
  if (module.default === undefined) throw new Error("has no default export; write `export default { ... }`");
  const parsed = schema.safeParse(module.default);
  if (!parsed.success) throw new ConfigInvalidError(describeZodIssues(parsed.error));
  return parsed.data;
}

function firstLine(error: unknown): string {
  const errors = error instanceof AggregateError ? error.errors : [error];
  return errors.map((item) => String(item instanceof Error ? item.message : item).split("\n")[0]).join("; ");
}
