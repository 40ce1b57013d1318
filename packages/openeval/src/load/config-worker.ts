// The config worker: imports author settings modules (benchmark.ts, eval.ts) in its own Bun process, one request per
// stdin line, and answers each with its default export as plain JSON on one stdout line. Running them here, under
// the loader's time limit, keeps a module whose import never settles from hanging validate, plan and run.
// eval.ts's case schemas cannot cross as data: they stay here, and the loader sends case lines to be checked.
import {
  CASE_SCHEMA_FIELDS,
  CASE_SCHEMA_MARKER,
  isCaseSchema,
  RESULT_PREFIX,
  toPlainData,
  type CaseCheck,
  type CaseSchema,
  type CaseSchemaField,
  type ConfigRequest,
} from "./plain-data.ts";

// Author code that logs must not garble the answers.
console.log = console.error;
console.info = console.error;

type Answer = { ok: true; value: unknown } | { ok: false; error: string };

/** The case schemas of each imported module, by file. */
const caseSchemas = new Map<string, Partial<Record<CaseSchemaField, CaseSchema>>>();

const decoder = new TextDecoder();
const reader = Bun.stdin.stream().getReader();
let buffered = "";
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
  buffered += decoder.decode(chunk.value, { stream: true });
  for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
    const request = JSON.parse(buffered.slice(0, newline)) as ConfigRequest;
    buffered = buffered.slice(newline + 1);
    const answer = "import" in request ? await importDefault(request.import) : await checkCases(request);
    process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(answer)}\n`);
  }
}

async function importDefault(file: string): Promise<Answer> {
  let module: { default?: unknown };
  try {
    module = (await import(file)) as { default?: unknown };
  } catch (error) {
    return { ok: false, error: `could not be loaded: ${describeLoadError(error)}` };
  }
  if (module.default === undefined)
    return { ok: false, error: "has no default export; write `export default { ... }`" };
  try {
    return { ok: true, value: toPlainData(withoutCaseSchemas(file, module.default)) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** The settings with `cases.input` / `cases.expected` schemas kept here and marked in their place. */
function withoutCaseSchemas(file: string, settings: unknown): unknown {
  const cases = (settings as { cases?: unknown } | null)?.cases;
  if (typeof cases !== "object" || cases === null) return settings;
  const schemas: Partial<Record<CaseSchemaField, CaseSchema>> = {};
  const marked: Record<string, unknown> = { ...cases };
  for (const field of CASE_SCHEMA_FIELDS) {
    const schema = marked[field];
    if (!isCaseSchema(schema)) continue;
    schemas[field] = schema;
    marked[field] = CASE_SCHEMA_MARKER;
  }
  caseSchemas.set(file, schemas);
  return { ...(settings as object), cases: marked };
}

/** Each case line checked against the schemas its eval.ts gave (imported first): problems name the field. */
async function checkCases(request: { validateCases: string; cases: { input: unknown; expected?: unknown }[] }) {
  const schemas = caseSchemas.get(request.validateCases) ?? {};
  const checks: CaseCheck[] = [];
  for (const line of request.cases) {
    const problems: string[] = [];
    const values: Partial<Record<CaseSchemaField, unknown>> = { input: line.input, expected: line.expected };
    for (const field of CASE_SCHEMA_FIELDS) {
      const schema = schemas[field];
      if (!schema) continue;
      const result = await checkValue(schema, line[field], field).catch((error: unknown) => ({
        issues: [`${field}: its schema threw: ${error instanceof Error ? error.message : String(error)}`],
      }));
      if ("issues" in result) problems.push(...result.issues);
      else values[field] = result.value;
    }
    checks.push(problems.length > 0 ? { problems } : { problems: [], ...values });
  }
  return { ok: true, value: checks } satisfies Answer;
}

async function checkValue(
  schema: CaseSchema,
  value: unknown,
  field: CaseSchemaField,
): Promise<{ value: unknown } | { issues: string[] }> {
  const result = await schema["~standard"].validate(value);
  if (result.issues) {
    return {
      issues: result.issues.map((issue) => `${formatPath([field, ...(issue.path ?? [])])}: ${issue.message}`),
    };
  }
  try {
    return { value: toPlainData(result.value, field) };
  } catch (error) {
    return { issues: [(error as Error).message.replace(/settings take/, "a case's values take")] };
  }
}

function formatPath(path: readonly (PropertyKey | { readonly key: PropertyKey })[]): string {
  return path
    .map((segment) => (typeof segment === "object" ? segment.key : segment))
    .map((key, index) => (typeof key === "number" ? `[${key}]` : `${index === 0 ? "" : "."}${String(key)}`))
    .join("");
}

function describeLoadError(error: unknown): string {
  const missing = missingPackage(error);
  if (missing === null) return `${firstLine(error)}; fix the TypeScript so that it compiles and runs`;
  if (missing === "openeval") {
    return "it imports openeval, which is not installed in the benchmark's folder; import only types from it there (`import type`), or install openeval in that folder (docs/using-openeval.md)";
  }
  return `it imports "${missing}", which is not installed in the benchmark's folder; install it there (npm install ${missing})`;
}

/** The package a bare import named that does not resolve (Bun's ERR_MODULE_NOT_FOUND), or null. */
function missingPackage(error: unknown): string | null {
  const { code, specifier } = (error ?? {}) as { code?: unknown; specifier?: unknown };
  if (code !== "ERR_MODULE_NOT_FOUND" || typeof specifier !== "string" || /^[./]|^[a-z]+:/i.test(specifier))
    return null;
  const parts = specifier.split("/");
  return (specifier.startsWith("@") ? parts.slice(0, 2) : parts.slice(0, 1)).join("/");
}

function firstLine(error: unknown): string {
  const errors = error instanceof AggregateError ? error.errors : [error];
  return errors.map((item) => String(item instanceof Error ? item.message : item).split("\n")[0]).join("; ");
}
