// A benchmark whose rubric is graded by scripted judges on a local OpenAI-compatible provider (the real-model path):
// `kind` and `harsh` agree on `clear` and always disagree on `tone`. The candidate, also scripted, writes notes.
import type { ControlFile } from "@openeval/control-model";

const submit = (tone: boolean): ControlFile => ({
  turns: [
    {
      tools: [
        {
          name: "judge_submit_judgment",
          input: {
            scores: {
              clear: { value: true, reason: "The notes say what changed.", evidence: [{ kind: "response" }] },
              tone: { value: tone, reason: tone ? "Friendly." : "Curt.", evidence: [{ kind: "response" }] },
            },
          },
        },
      ],
    },
    { text: "Judgment submitted." },
  ],
});

/** The scripted models, for startControlServer: provider `local`, the candidate `writer` and two judges. */
export const PANEL_CONTROLS: Record<string, Record<string, ControlFile>> = {
  local: {
    writer: { turns: [{ text: "Release notes: add() now adds instead of subtracting." }] },
    kind: submit(true),
    harsh: submit(false),
  },
};

/** benchmark.ts's judge settings as written (e.g. `{ model: "local/kind" }`), the candidate and judges on `baseURL`. */
export function panelBenchmark(baseURL: string, judge: string): Record<string, string> {
  const model = { name: "scripted", tool_call: true, limit: { context: 128_000, output: 1_024 } };
  const providers = {
    local: {
      npm: "@ai-sdk/openai-compatible",
      name: "Local",
      options: { baseURL, apiKey: "sk-local-not-secret" },
      models: { writer: model, kind: model, harsh: model },
    },
  };
  return {
    "benchmark.ts": `export default {
  models: ["local/writer"],
  repetitions: 2,
  concurrency: 2,
  judge: ${judge},
  candidate: { isolation: "process", providers: ${JSON.stringify(providers)} },
};\n`,
    "evals/notes/prompt.md": "Write release notes for the fix to add().\n",
    "evals/notes/judge.md":
      "# Release notes\n\n## Criterion: clear — Clear\n\nThe notes say what changed.\n\n## Criterion: tone — Friendly tone\n\nThe notes read as friendly.\n",
  };
}
