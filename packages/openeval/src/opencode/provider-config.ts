// The OpenCode `provider` config a session runs with: the benchmark's providers, plus, for a `control/*` model,
// the scripted provider on 127.0.0.1 that plays control files (candidates and the scripted judge alike).
import { CONTROL_PROVIDER, controlName, isControlModel } from "../util/control-model.ts";
import { isRecord } from "../util/is-record.ts";
import { parseModelRef } from "./model-id.ts";

export { CONTROL_PROVIDER };

export function buildProviderConfig(
  model: string,
  configured: Record<string, Record<string, unknown>>,
  controlBaseURL: string | null,
): Record<string, unknown> {
  const providers: Record<string, Record<string, unknown>> = structuredClone(configured);
  if (isControlModel(model)) {
    if (!controlBaseURL) throw new Error(`model ${model} is a control but no control server is running`);
    const name = controlName(model).split("#")[0]!;
    const scripted = {
      npm: "@ai-sdk/openai-compatible",
      name: "openeval scripted controls",
      options: { baseURL: controlBaseURL, apiKey: "control" },
      // Controls cost nothing unless the benchmark prices them (tests of cost limits do).
      models: {
        [name]: {
          name: `control/${name}`,
          tool_call: true,
          limit: { context: 128_000, output: 8_192 },
          cost: { input: 0, output: 0 },
        },
      },
    };
    providers[CONTROL_PROVIDER] = mergeDeep(scripted, providers[CONTROL_PROVIDER] ?? {});
  }
  return providers;
}

function mergeDeep(base: Record<string, unknown>, override: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(override)) {
    const current = merged[key];
    merged[key] = isRecord(current) && isRecord(value) ? mergeDeep(current, value) : value;
  }
  return merged;
}

/** The endpoint the model's provider is configured with (`options.baseURL`), or null for a catalog provider. */
export function providerEndpoint(model: string, providers: Record<string, unknown>): string | null {
  const provider = providers[parseModelRef(model).provider];
  const options = isRecord(provider) ? provider.options : undefined;
  return isRecord(options) && typeof options.baseURL === "string" ? options.baseURL : null;
}
