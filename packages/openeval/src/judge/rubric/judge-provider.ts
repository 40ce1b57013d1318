// The OpenCode `provider` config a judge session runs with: the benchmark's `candidate.providers` (plus OpenCode's
// own catalog), and for a `control/*` judge the scripted provider on 127.0.0.1.
import type { BenchmarkSettings } from "../../load/index.ts";
import { parseModelRef } from "../../opencode/index.ts";

/** Mirrors the candidate stage's control provider; judge/ may not import candidate/, so the shape is restated. */
export function buildJudgeProvider(model: string, settings: BenchmarkSettings, controlBaseURL: string | null): Record<string, unknown> {
  const providers: Record<string, Record<string, unknown>> = structuredClone(settings.candidate.providers);
  const ref = parseModelRef(model);
  if (ref.provider !== "control") return providers;
  if (!controlBaseURL) throw new Error(`judge model ${model} is a control, but no control server is running for this eval`);
  const name = ref.id.slice("control/".length);
  const configured = providers.control ?? {};
  providers.control = {
    npm: "@ai-sdk/openai-compatible",
    name: "openeval scripted controls",
    ...configured,
    options: { ...(configured.options as object | undefined), baseURL: controlBaseURL, apiKey: "control" },
    models: {
      ...(configured.models as object | undefined),
      [name]: { name: model, tool_call: true, limit: { context: 128_000, output: 8_192 }, cost: { input: 0, output: 0 } },
    },
  };
  return providers;
}
