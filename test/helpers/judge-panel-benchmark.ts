// A benchmark whose rubric is graded by scripted judges on a local OpenAI-compatible provider (the real-model path):
// `kind` and `harsh` agree on `clear` and always disagree on `tone`. The candidate, also scripted, writes notes.
import type { ControlFile } from "@openeval/control-model";
import { localProvider } from "./local-provider.ts";

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
  const providers = localProvider(baseURL, ["writer", "kind", "harsh"]);
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

/**
 * The offline panel: a control candidate graded by control/judge and control/judge#harsh, which disagree on `tone`
 * because its control file says so (`judges.harsh`).
 */
export const CONTROL_PANEL_BENCHMARK: Record<string, string> = {
  "benchmark.ts": `export default { models: ["control/positive"], repetitions: 2, judge: { models: ["control/judge", "control/judge#harsh"] } };\n`,
  "evals/notes/prompt.md": "Write release notes.\n",
  "evals/notes/judge.md":
    "# Notes\n\n## Criterion: clear — Clear\n\nClear.\n\n## Criterion: tone — Friendly tone\n\nFriendly.\n",
  "evals/notes/controls/positive.json": JSON.stringify({
    turns: [{ text: "Notes." }],
    verdict: { clear: { value: true, reason: "Says what changed." }, tone: { value: true, reason: "Friendly." } },
    judges: { harsh: { tone: { value: false, reason: "Curt." } } },
  }),
};
