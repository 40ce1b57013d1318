// A scripted "real" provider for benchmark.ts: OpenAI-compatible, served by a control server on 127.0.0.1, each model
// a control file of that server. Runs take the real-model path (containers, pricing, integrity) with no model called.

/** `candidate.providers.local` for the models named, on `baseURL`. */
export function localProvider(baseURL: string, models: readonly string[]): Record<string, unknown> {
  const model = { name: "scripted", tool_call: true, limit: { context: 128_000, output: 1_024 } };
  return {
    local: {
      npm: "@ai-sdk/openai-compatible",
      name: "Local",
      options: { baseURL, apiKey: "sk-local-not-secret" },
      models: Object.fromEntries(models.map((name) => [name, model])),
    },
  };
}
