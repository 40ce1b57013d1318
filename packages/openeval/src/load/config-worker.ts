// The config worker: imports author settings modules (benchmark.ts, eval.ts) in its own Bun process, one path per
// stdin line, and answers each with its default export as plain JSON on one stdout line. Running them here, under
// the loader's time limit, keeps a module whose import never settles from hanging validate, plan and run.
import { RESULT_PREFIX, toPlainData } from "./plain-data.ts";

// Author code that logs must not garble the answers.
console.log = console.error;
console.info = console.error;

const decoder = new TextDecoder();
const reader = Bun.stdin.stream().getReader();
let buffered = "";
for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
  buffered += decoder.decode(chunk.value, { stream: true });
  for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
    const file = buffered.slice(0, newline);
    buffered = buffered.slice(newline + 1);
    process.stdout.write(`${RESULT_PREFIX}${JSON.stringify(await importDefault(file))}\n`);
  }
}

async function importDefault(file: string): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  let module: { default?: unknown };
  try {
    module = (await import(file)) as { default?: unknown };
  } catch (error) {
    return { ok: false, error: `could not be loaded: ${describeLoadError(error)}` };
  }
  if (module.default === undefined)
    return { ok: false, error: "has no default export; write `export default { ... }`" };
  try {
    return { ok: true, value: toPlainData(module.default) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
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
