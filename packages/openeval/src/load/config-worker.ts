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
    return { ok: false, error: `could not be loaded: ${firstLine(error)}; fix the TypeScript so that it compiles and runs` };
  }
  if (module.default === undefined) return { ok: false, error: "has no default export; write `export default { ... }`" };
  try {
    return { ok: true, value: toPlainData(module.default) };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

function firstLine(error: unknown): string {
  const errors = error instanceof AggregateError ? error.errors : [error];
  return errors.map((item) => String(item instanceof Error ? item.message : item).split("\n")[0]).join("; ");
}
