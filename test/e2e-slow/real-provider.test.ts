// Real models, told straight: `openeval run` against scripted models served as an ordinary local
// OpenAI-compatible provider on 127.0.0.1, configured through benchmark.ts `candidate.providers` exactly as a user
// configures llama.cpp or vLLM — so everything here takes the real-model path (credentials, provider config, pricing).
// One provider answers context-length errors (OpenAI's and llama.cpp's shapes), one cuts its answer at the output
// limit, one fails twice before it answers (OpenCode retries), one is unpriced, one makes OpenCode compact on every
// step, and one sits on a port that never accepts.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { startControlServer, type ControlServer } from "@openeval/control-model";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readResults } from "../../packages/openeval/src/index.ts";
import { COMPACTION_WARNING } from "../../packages/openeval/src/summary/summarize-run.ts";
import { ResultsStore } from "../../packages/openeval/src/records/store.ts";
import type { EvalRun } from "../../packages/openeval/src/records/index.ts";
import { runCli, type CliResult } from "../helpers/cli.ts";
import { writeTree } from "../helpers/fixtures.ts";
import { exportWithOpenCode } from "../helpers/native-export.ts";
import { closedPort } from "../helpers/ports.ts";

const OPENAI_OVERFLOW = {
  error: {
    message:
      "This model's maximum context length is 2048 tokens. However, your messages resulted in 6230 tokens. Please reduce the length of the messages.",
    type: "invalid_request_error",
    param: "messages",
    code: "context_length_exceeded",
  },
};
const LLAMA_OVERFLOW = {
  error: {
    code: 400,
    message: "the request exceeds the available context size, try increasing it",
    type: "exceed_context_size_error",
    n_prompt_tokens: 6230,
    n_ctx: 2048,
  },
};

let provider: ControlServer;
let directory: string;
let run: CliResult;
let plan: CliResult;
let downPort: number;

const model = (name: string, extra: object = {}) => ({
  name,
  tool_call: true,
  limit: { context: 128_000, output: 1_024 },
  cost: { input: 1, output: 2 },
  ...extra,
});

function benchmarkSource(gates: string, verdict: string): string {
  const local = {
    npm: "@ai-sdk/openai-compatible",
    name: "Local",
    options: { baseURL: provider.baseURL("local"), apiKey: "sk-local-not-secret" },
  };
  const providers = {
    local: {
      ...local,
      models: {
        small: model("small"),
        "llama-small": model("llama-small"),
        cut: model("cut"),
        flaky: model("flaky"),
        // Declared without `cost`: OpenCode would record $0 for it.
        unpriced: { name: "unpriced", tool_call: true, limit: { context: 128_000, output: 1_024 } },
        // A context this small makes OpenCode compact after every step.
        compactor: model("compactor", { limit: { context: 4_000, output: 512 } }),
      },
    },
    down: {
      npm: "@ai-sdk/openai-compatible",
      options: { baseURL: `http://127.0.0.1:${downPort}/v1` },
      models: { model: model("model") },
    },
  };
  return `export default {
  models: ["local/small", "local/llama-small", "local/cut", "local/flaky", "local/unpriced", "down/model", "local/compactor"],
  repetitions: 1,
  concurrency: 2,
  // On this machine: these journeys are about what providers answer; candidates in containers have their own suite.
  candidate: { isolation: "process", timeoutMs: 100_000, maxCostUSD: 1, providers: ${JSON.stringify(providers)} },
  gates: ${gates},
  verdict: ${verdict},
};\n`;
}

beforeAll(async () => {
  downPort = await closedPort();
  const answer = (extra: object = {}) => ({ turns: [{ text: "OK", usage: { input: 900, output: 5 }, ...extra }] });
  provider = await startControlServer({
    controls: {
      local: {
        small: { turns: [{ error: { status: 400, body: OPENAI_OVERFLOW } }] },
        "llama-small": { turns: [{ error: { status: 400, body: LLAMA_OVERFLOW } }] },
        cut: {
          turns: [
            { text: "OK, and then", finishReason: "length", usage: { input: 900, output: 1_024 } },
            { text: "OK" },
          ],
        },
        unpriced: answer(),
        // Two transient 503s before the answer: OpenCode retries them (it persists no trace; its log shows them).
        flaky: { turns: [{ failFirst: { times: 2, status: 503 }, text: "OK", usage: { input: 900, output: 5 } }] },
        // Paced, so that its endless loop does not starve the other candidates of the 2 cores.
        compactor: {
          turns: [
            {
              delayMs: 1_000,
              tools: [{ name: "bash", input: { command: "echo step", description: "step" } }],
              usage: { input: 9_000, output: 10 },
            },
          ],
        },
      },
    },
  });
  directory = await writeTree({
    // Only the gates decide: the unpriced model's unknown cost leaves the cost gate undecidable.
    "benchmark.ts": benchmarkSource("{ cost: { maxUSD: 5 } }", `{ "code-judge": false }`),
    "evals/answer/prompt.md": "Reply with OK.\n",
    "evals/answer/judge.ts": `export default ({ response }) => ({ scores: { ok: response.text.trim().startsWith("OK") } });\n`,
  });
  run = await runCli(["run", "--benchmark", directory], { timeoutMs: 550_000 });
  plan = await runCli(["plan", "--benchmark", directory]);
});

afterAll(async () => {
  await provider?.close();
});

function runDirectory(): string {
  const root = join(directory, "results");
  return join(root, readdirSync(root)[0]!);
}

function evalRunOf(model: string): EvalRun {
  const store = ResultsStore.open(runDirectory(), { readonly: true });
  try {
    return store.evalRuns().find((evalRun) => evalRun.slot.model === model)!;
  } finally {
    store.close();
  }
}

describe("a provider on a closed port", () => {
  it("makes its slots infrastructure errors at once, naming the URL, while the other models run", () => {
    const down = evalRunOf("down/model");
    expect(down).toMatchObject({ state: "failed", infrastructureError: true, evidence: null });
    expect(down.error).toContain(`http://127.0.0.1:${downPort}/v1`);
    expect(down.error).toContain('Provider "down"');
    // Preflight, not ~70 s of OpenCode retries: no OpenCode session was started for it.
    expect(down.elapsedMs!).toBeLessThan(10_000);
    expect(evalRunOf("local/unpriced").state).toBe("completed");
    expect(run.stdout).toMatch(
      new RegExp(
        `answer × down/model #1 \\[eval run ${down.id}\\]: failed — Infrastructure error: Provider "down" is unreachable`,
      ),
    );
  });
});

describe("a provider answering context-length errors", () => {
  it.each([
    ["OpenAI's shape (OpenCode compacts and would retry forever)", "local/small"],
    ["llama.cpp's shape", "local/llama-small"],
  ])(
    "%s is a setup error of the model with both numbers and the remedy, never a candidate failure or a 0",
    (_shape, name) => {
      const evalRun = evalRunOf(name);
      expect(evalRun).toMatchObject({ state: "failed", infrastructureError: true, setupError: true });
      expect(evalRun.error).toContain(`Setup error of ${name}`);
      expect(evalRun.error).toContain("6230 tokens");
      expect(evalRun.error).toContain("2048 tokens");
      expect(evalRun.error).toMatch(/Raise the server's context .* or set limit\.context/);
      // The same words in the summary; never scored (no judge run), never "Candidate failed".
      expect(run.stdout).toContain(`answer × ${name} #1 [eval run ${evalRun.id}]: failed — Setup error of ${name}`);
      expect(run.stdout).not.toContain(`${name} #1 [eval run ${evalRun.id}]: failed — Candidate failed`);
      expect(run.stdout).toMatch(
        new RegExp(`${name.replace("/", "\\/")} \\(unsandboxed\\)\\s+\\[0\\.0–100\\.0\\]% \\(incomplete\\)`),
      );
    },
  );

  it("counts the rejected request as failed in the metrics", () => {
    const { metrics } = evalRunOf("local/small");
    // OpenCode 1.18 compacts past the rejection (the harness ends the run right then, so a recording exists): the
    // rejected attempt is a failed request, and the only requests that succeeded are the compaction summaries.
    expect(metrics?.requests?.failed).toBeGreaterThanOrEqual(1);
    expect(metrics?.requests?.finishReasons?.error).toBe(metrics?.requests?.failed);
    expect(metrics?.requests?.succeeded).toBeLessThanOrEqual(metrics?.compactions ?? 0);
  });
});

describe("metrics and cost against real providers", () => {
  it("shows a step cut at the output limit in the metrics", () => {
    const cut = evalRunOf("local/cut");
    expect(cut.metrics?.truncated).toBe(1);
    expect(cut.metrics?.requests?.finishReasons).toMatchObject({ length: 1 });
  });

  it("counts OpenCode's retries of a provider's transient failures in the metrics", () => {
    const flaky = evalRunOf("local/flaky");
    expect(flaky.state).toBe("completed");
    expect(flaky.metrics?.requests).toMatchObject({ started: 1, succeeded: 1, failed: 0, retries: 2 });
    // A run without transient failures says 0, not unknown.
    expect(evalRunOf("local/unpriced").metrics?.requests?.retries).toBe(0);
  });

  it("records an unpriced model's cost as unknown, counted in unknownCost, and the cost gate cannot pass silently", async () => {
    const unpriced = evalRunOf("local/unpriced");
    expect(unpriced.metrics?.cost.usd).toBeNull();
    expect(run.stdout).toMatch(/local\/unpriced \(unsandboxed\)\s+100\.0%.*unknown/);
    expect(run.stdout).toContain("local/unpriced has no pricing");
    const results = await readResults(runDirectory());
    expect(results.models.find((entry) => entry.model === "local/unpriced")!.costTime.unknownCost).toBe(1);
    const gate = results.verdict.gates.find((entry) => entry.id === "cost.maxUSD")!;
    expect(gate.status).toBe("unknown");
  });

  it("an unpriced model cannot satisfy --max-cost: its work is deferred with the reason", async () => {
    const capped = await runCli([
      "plan",
      "--benchmark",
      directory,
      "--new",
      "--max-cost",
      "100",
      "--only-model",
      "local/unpriced",
    ]);
    expect(capped.stdout).toMatch(
      /deferred\s+answer × local\/unpriced #1 — --max-cost: its maximum cost is unknown; local\/unpriced has no pricing/,
    );
  });

  it("warns when a run compacted more than a few times", () => {
    const compactor = evalRunOf("local/compactor");
    expect(compactor.metrics, JSON.stringify(compactor)).not.toBeNull();
    const compactions = compactor.metrics!.compactions!;
    expect(compactions).toBeGreaterThanOrEqual(1);
    // How many fit in the timeout depends on the machine's load: the warning must match the count either way.
    const warning = `answer × local/compactor #1 [eval run ${compactor.id}] compacted its context ${compactions} times`;
    if (compactions > COMPACTION_WARNING) expect(run.stdout).toContain(warning);
    else expect(run.stdout).not.toContain("compacted its context");
  });
});

describe("session exports", () => {
  // Built from the database in-process: rejected requests, a cut step and compactions are the shapes a
  // scripted happy path never writes, so each is checked against the pinned binary's own export.
  it("are OpenCode's own `opencode export`, byte for byte, for every recorded session", async () => {
    let compared = 0;
    for (const model of ["local/small", "local/cut", "local/compactor"]) {
      const evalRun = evalRunOf(model);
      if (!evalRun.evidence) continue; // a request refused before OpenCode stored anything
      const evidence = join(runDirectory(), evalRun.evidence.directory);
      const manifest = JSON.parse(readFileSync(join(evidence, "manifest.json"), "utf8")) as {
        native: { database: { file: string }; sessions: { id: string; export: string }[] };
      };
      const reference = await exportWithOpenCode(join(evidence, manifest.native.database.file));
      expect(manifest.native.sessions.map((session) => session.id).sort()).toEqual([...reference.keys()].sort());
      for (const session of manifest.native.sessions) {
        expect(readFileSync(join(evidence, session.export), "utf8"), `${model} ${session.id}`).toBe(
          reference.get(session.id),
        );
        compared++;
      }
    }
    expect(compared).toBeGreaterThanOrEqual(2);
  }, 120_000);
});

describe("ids where they are needed", () => {
  it("plan prints the eval-run ids that retry takes", () => {
    const down = evalRunOf("down/model");
    expect(plan.stdout).toContain(`answer × down/model #1 [eval run ${down.id}] — Infrastructure error`);
  });
});

/** readResults in a fresh process, as a script run after the edit would call it (no module cache of the old benchmark.ts). */
async function readResultsElsewhere(
  runDir: string,
): Promise<{ verdict: { status: string; enabled: string[]; gates: { id: string }[] }; settingsNote: string | null }> {
  const script = `import { readResults } from ${JSON.stringify(join(import.meta.dirname, "../../packages/openeval/src/index.ts"))};
const summary = await readResults(${JSON.stringify(runDir)});
console.log(JSON.stringify({ verdict: summary.verdict, settingsNote: summary.settingsNote }));`;
  const child = Bun.spawn([process.execPath, "--eval", script], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  if (child.exitCode !== 0) throw new Error(`readResults failed: ${stderr}`);
  return JSON.parse(stdout);
}

/** `openeval view` as a user starts it, on a free port; resolves with its URL once it listens. */
async function startViewer(): Promise<{ url: string; stop: () => Promise<void> }> {
  const child = Bun.spawn(
    [
      "node",
      join(import.meta.dirname, "../../packages/openeval/bin/openeval"),
      "view",
      "--benchmark",
      directory,
      "--port",
      "0",
    ],
    { stdout: "pipe", stderr: "pipe" },
  );
  const reader = child.stdout.getReader();
  let text = "";
  while (!/http:\/\/127\.0\.0\.1:\d+\//.test(text)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`openeval view exited: ${await new Response(child.stderr).text()}`);
    text += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return {
    url: /http:\/\/127\.0\.0\.1:\d+\//.exec(text)![0],
    stop: async () => {
      child.kill("SIGTERM");
      await child.exited;
    },
  };
}

describe("a run whose benchmark.ts gates change after the run", () => {
  let viewer: { url: string; stop: () => Promise<void> } | undefined;
  afterAll(async () => {
    await viewer?.stop();
  });

  it("keeps its verdict in the CLI summary, readResults and the viewer, with a note that benchmark.ts changed", async () => {
    // Nothing failed, but the cost gate cannot be decided: "incomplete" (exit 3), never "pass".
    expect(run.stdout).toContain("Verdict: incomplete");
    expect(run.stdout).not.toContain("Verdict: pass");
    expect(run.exitCode).toBe(3);
    const before = await readResultsElsewhere(runDirectory());
    expect(before.settingsNote).toBeNull();
    // A gate every model fails, and the code judge back on: under today's benchmark.ts the verdict would be "fail".
    writeFileSync(join(directory, "benchmark.ts"), benchmarkSource("{ score: { min: 1 }, cost: { maxUSD: 5 } }", "{}"));
    const after = await readResultsElsewhere(runDirectory());
    expect(after.verdict.status).toBe(before.verdict.status);
    expect(after.verdict.gates.map((gate) => gate.id)).toEqual(["cost.maxUSD"]);
    expect(after.verdict.enabled).toEqual(before.verdict.enabled);
    expect(after.settingsNote).toContain("benchmark.ts has changed since this run");

    viewer = await startViewer();
    const runId = readdirSync(join(directory, "results"))[0]!;
    const overview = await (await fetch(`${viewer.url}api/runs/${runId}`)).json();
    expect(overview.verdict.status).toBe(before.verdict.status);
    expect(overview.verdictWords?.headline).toBe("incomplete");
    expect(overview.verdictNote).toContain("benchmark.ts has changed since this run");
  });

  it("shows the truncated step, the unknown cost, the setup error's words and the rejected step's error in the viewer", async () => {
    const url = viewer!.url;
    const runId = readdirSync(join(directory, "results"))[0]!;
    const cut = await (await fetch(`${url}api/runs/${runId}/eval-runs/${evalRunOf("local/cut").id}`)).json();
    expect(cut.metrics.truncated).toBe(1);
    const small = await (await fetch(`${url}api/runs/${runId}/eval-runs/${evalRunOf("local/small").id}`)).json();
    expect(small.outcome).toBe("setup error");
    const transcript = await (
      await fetch(`${url}api/runs/${runId}/eval-runs/${evalRunOf("local/small").id}/transcript?offset=0&limit=50`)
    ).json();
    const errors = transcript.items.map((message: { error: string | null }) => message.error).filter(Boolean);
    expect(errors.some((error: string) => error.includes("maximum context length is 2048 tokens"))).toBe(true);
    const list = await (await fetch(`${url}api/runs/${runId}/eval-runs?offset=0&limit=50`)).json();
    expect(list.items.find((row: { model: string }) => row.model === "local/unpriced").costUSD).toBeNull();
    expect(list.items.find((row: { model: string }) => row.model === "down/model").outcome).toBe(
      "infrastructure error",
    );
  });
});
