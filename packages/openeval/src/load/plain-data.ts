// What crosses from the config worker to the loader: plain data only. A function, symbol, bigint, non-finite
// number or class instance in settings would be lost in JSON, so it is an error naming where it is.

/** Marks the worker's answer lines on its stdout. */
export const RESULT_PREFIX = "\u0000openeval-config\u0000";

/**
 * Stands, in the plain data, for a schema eval.ts gives its cases (`cases.input`, `cases.expected`): the schema
 * itself stays in the worker, which validates each case line with it (see config-worker.ts).
 */
export const CASE_SCHEMA_MARKER = "\u0000openeval-case-schema\u0000";

/** The two case fields eval.ts may give a schema for. */
export const CASE_SCHEMA_FIELDS = ["input", "expected"] as const;
export type CaseSchemaField = (typeof CASE_SCHEMA_FIELDS)[number];

/** What the loader asks the worker: import a settings module, or check case lines against its case schemas. */
export type ConfigRequest =
  | { import: string }
  | { validateCases: string; cases: { input: unknown; expected?: unknown }[] };

/** One case line checked: its problems (each naming the field), or the values the schemas gave. */
export type CaseCheck = { problems: string[] } | { problems: []; input: unknown; expected?: unknown };

/**
 * A Standard Schema (zod 3.24+ and 4, valibot, ArkType…): what eval.ts may give as `cases.input` / `cases.expected`.
 * https://standardschema.dev
 */
export interface CaseSchema {
  readonly "~standard": {
    readonly validate: (value: unknown) => CaseSchemaResult | Promise<CaseSchemaResult>;
  };
}
type CaseSchemaResult =
  | { readonly value: unknown; readonly issues?: undefined }
  | {
      readonly issues: readonly {
        readonly message: string;
        readonly path?: readonly (PropertyKey | { readonly key: PropertyKey })[];
      }[];
    };

export function isCaseSchema(value: unknown): value is CaseSchema {
  const standard = (value as { "~standard"?: { validate?: unknown } } | null)?.["~standard"];
  return typeof standard?.validate === "function";
}

export function toPlainData(value: unknown, path = "default export"): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new Error(`${path} is ${value}; settings take finite numbers`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item, index) => toPlainData(item, `${path}[${index}]`));
  if (typeof value === "object") {
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null)
      throw new Error(`${path} is a ${prototype?.constructor?.name ?? "class"} instance; settings take plain objects`);
    const entries = Object.entries(value).filter(([, item]) => item !== undefined);
    return Object.fromEntries(entries.map(([key, item]) => [key, toPlainData(item, `${path}.${key}`)]));
  }
  throw new Error(
    `${path} is a ${typeof value}; settings take plain data (strings, numbers, booleans, arrays, objects)`,
  );
}
