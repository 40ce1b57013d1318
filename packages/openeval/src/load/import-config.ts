// Imports an author's settings modules (benchmark.ts, eval.ts) and validates their default exports. These are
// configuration files, meant to be evaluated at load time (unlike judge.ts) — but in a child process under a time
// limit: an import that never settles (`await new Promise(() => {})`, `while (true) {}`) is a load error
// naming the file instead of a silent hang. One worker serves every file of a load; a timed-out one is replaced.
import { fileURLToPath } from "node:url";
import type { z } from "zod";
import { describeZodIssues } from "../util/zod-issues.ts";
import { BenchmarkInvalidError } from "./errors.ts";
import { RESULT_PREFIX, type CaseCheck, type ConfigRequest } from "./plain-data.ts";

const WORKER = fileURLToPath(new URL("./config-worker.ts", import.meta.url));
export const DEFAULT_CONFIG_TIMEOUT_MS = 10_000;
/** Environment override of the time limit, in milliseconds. */
export const CONFIG_TIMEOUT_ENV = "OPENEVAL_CONFIG_TIMEOUT_MS";

/** The settings did not validate: one message per problem, each naming its key. */
export class ConfigInvalidError extends Error {
  constructor(readonly messages: string[]) {
    super(messages.join("; "));
  }
}

export interface ConfigImporter {
  /** Imports one settings module and validates its default export. */
  import<Schema extends z.ZodType>(file: string, schema: Schema): Promise<z.output<Schema>>;
  /** Checks case lines against the case schemas of `file` (an eval.ts imported before): one check a case, in order. */
  validateCases(file: string, cases: { input: unknown; expected?: unknown }[]): Promise<CaseCheck[]>;
  close(): void;
}

type Answer = { ok: true; value: unknown } | { ok: false; error: string };

/**
 * @example
 * const importer = createConfigImporter();
 * try { settings = await importer.import(file, BenchmarkSchema); } finally { importer.close(); }
 */
export function createConfigImporter(timeoutMs = configTimeout()): ConfigImporter {
  let worker: ReturnType<typeof startWorker> | null = null;
  // One import at a time: answers come back in request order.
  let queue: Promise<unknown> = Promise.resolve();
  const ask = async (request: ConfigRequest): Promise<Answer> => {
    worker ??= startWorker();
    const current = worker;
    current.process.stdin.write(`${JSON.stringify(request)}\n`);
    current.process.stdin.flush();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), timeoutMs)));
    const answer = await Promise.race([current.next(), timedOut]);
    clearTimeout(timer);
    if (answer !== "timeout" && answer !== null) return answer;
    current.process.kill("SIGKILL");
    worker = null;
    if (answer === "timeout") {
      return {
        ok: false,
        error:
          "import" in request
            ? `its import did not settle within ${timeoutMs} ms (a top-level await that never resolves, or a loop); fix it, or raise ${CONFIG_TIMEOUT_ENV}`
            : `its case schemas did not check the cases within ${timeoutMs} ms (a refinement that never resolves, or a loop); fix them, or raise ${CONFIG_TIMEOUT_ENV}`,
      };
    }
    // The worker waits on a settling import forever; it only ends when the module ends its process.
    await current.process.exited;
    const how = current.process.signalCode
      ? `killed by ${current.process.signalCode}`
      : `exit code ${current.process.exitCode}`;
    return {
      ok: false,
      error: `its import ended the process (${how}), e.g. with process.exit(); a settings module only exports its settings: remove the call`,
    };
  };
  const askInTurn = async (request: ConfigRequest): Promise<unknown> => {
    const answer = queue.then(() => ask(request));
    queue = answer.catch(() => undefined);
    const result = await answer;
    if (!result.ok) throw new Error(result.error);
    return result.value;
  };
  return {
    import: async (file, schema) => {
      const parsed = schema.safeParse(await askInTurn({ import: file }));
      if (!parsed.success) throw new ConfigInvalidError(describeZodIssues(parsed.error));
      return parsed.data;
    },
    validateCases: async (file, cases) => (await askInTurn({ validateCases: file, cases })) as CaseCheck[],
    close: () => worker?.process.kill("SIGKILL"),
  };
}

function configTimeout(): number {
  const raw = process.env[CONFIG_TIMEOUT_ENV];
  if (raw === undefined) return DEFAULT_CONFIG_TIMEOUT_MS;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new BenchmarkInvalidError([
      { file: CONFIG_TIMEOUT_ENV, message: `takes a whole number of milliseconds from 1; got "${raw}"` },
    ]);
  }
  return value;
}

/** The worker and a reader of its answers: `next()` is the next answer, or null once the worker has exited. */
function startWorker() {
  // --no-install: loading settings never downloads packages.
  const child = Bun.spawn([process.execPath, "--no-install", WORKER], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "inherit",
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  const next = async (): Promise<Answer | null> => {
    for (;;) {
      for (let newline = buffered.indexOf("\n"); newline >= 0; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (line.startsWith(RESULT_PREFIX)) return JSON.parse(line.slice(RESULT_PREFIX.length)) as Answer;
      }
      const chunk = await reader.read();
      if (chunk.done) return null;
      buffered += decoder.decode(chunk.value, { stream: true });
    }
  };
  return { process: child, next };
}
