// Chooses the credentials one candidate may see: only its own provider's environment keys (by allowlist) and its
// own entry from the user's OpenCode auth.json. What it returns to redact is wider: every secret the runner can see
// (known-secrets.ts), so another provider's key a candidate reads by path never reaches results/ either.

import { readFile } from "node:fs/promises";
import { parseModelRef } from "./model-id.ts";
import { CONTROL_PROVIDER } from "./provider-config.ts";
import { AuthFileSchema } from "./auth-schema.ts";
import { isRecord } from "../util/is-record.ts";
import { defaultAuthFile, findKnownSecrets } from "./known-secrets.ts";

interface ProviderEnv {
  /** Secret values: handed over and redacted everywhere. */
  secrets: readonly string[];
  /** Non-secret settings the provider needs (region, project, resource name): handed over, not redacted. */
  settings?: readonly string[];
}

/**
 * The one allowlist. Names are the `env` lists of OpenCode 1.18.33's bundled models.dev catalogue (read from the
 * binary), split into secrets and settings. A provider that is missing here gets no environment keys (only its
 * auth.json entry); add it here, never at a call site.
 */
const PROVIDER_ENV: Readonly<Record<string, ProviderEnv>> = {
  anthropic: { secrets: ["ANTHROPIC_API_KEY"] },
  openai: { secrets: ["OPENAI_API_KEY"] },
  google: { secrets: ["GOOGLE_GENERATIVE_AI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"] },
  "google-vertex": {
    secrets: [],
    settings: ["GOOGLE_VERTEX_PROJECT", "GOOGLE_VERTEX_LOCATION", "GOOGLE_APPLICATION_CREDENTIALS"],
  },
  "google-vertex-anthropic": {
    secrets: [],
    settings: ["GOOGLE_VERTEX_PROJECT", "GOOGLE_VERTEX_LOCATION", "GOOGLE_APPLICATION_CREDENTIALS"],
  },
  "amazon-bedrock": {
    secrets: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_BEARER_TOKEN_BEDROCK"],
    settings: ["AWS_REGION"],
  },
  azure: { secrets: ["AZURE_API_KEY"], settings: ["AZURE_RESOURCE_NAME"] },
  openrouter: { secrets: ["OPENROUTER_API_KEY"] },
  groq: { secrets: ["GROQ_API_KEY"] },
  mistral: { secrets: ["MISTRAL_API_KEY"] },
  xai: { secrets: ["XAI_API_KEY"] },
  deepseek: { secrets: ["DEEPSEEK_API_KEY"] },
  togetherai: { secrets: ["TOGETHER_API_KEY"] },
  "fireworks-ai": { secrets: ["FIREWORKS_API_KEY"] },
  cerebras: { secrets: ["CEREBRAS_API_KEY"] },
  deepinfra: { secrets: ["DEEPINFRA_API_KEY"] },
  perplexity: { secrets: ["PERPLEXITY_API_KEY"] },
  cohere: { secrets: ["COHERE_API_KEY"] },
  huggingface: { secrets: ["HF_TOKEN"] },
  nvidia: { secrets: ["NVIDIA_API_KEY"] },
  vercel: { secrets: ["AI_GATEWAY_API_KEY"] },
  alibaba: { secrets: ["DASHSCOPE_API_KEY"] },
  moonshotai: { secrets: ["MOONSHOT_API_KEY"] },
  zai: { secrets: ["ZHIPU_API_KEY"] },
  zhipuai: { secrets: ["ZHIPU_API_KEY"] },
  minimax: { secrets: ["MINIMAX_API_KEY"] },
  opencode: { secrets: ["OPENCODE_API_KEY"] },
  "github-copilot": { secrets: ["GITHUB_TOKEN"] },
};

export interface CredentialRequest {
  /** `provider/model[#variant]`. */
  model: string;
  /** The environment to pick from (usually `process.env`); never mutated. */
  environment: Record<string, string | undefined>;
  /** The user's OpenCode auth.json; default `$XDG_DATA_HOME/opencode/auth.json`, else `~/.local/share/opencode/auth.json`. */
  authFile?: string;
  /** benchmark.ts `candidate.providers`: keys written there (`options.apiKey`) are redacted too. */
  providers?: Record<string, unknown>;
}

export interface Credentials {
  /** Environment keys for the candidate's own provider only. */
  env: Record<string, string>;
  /** That provider's auth.json entry, to be written into the isolated data dir; null when there is none. */
  auth: Record<string, unknown> | null;
  /**
   * Every secret value to redact from what the session leaves: those handed over, plus every other secret the
   * runner can see (all auth.json entries, credential-shaped environment variables), for controls too.
   */
  secrets: string[];
}

/**
 * @example
 * const creds = await selectCredentials({ model: "anthropic/claude-sonnet-4-5", environment: process.env });
 * // creds.env → { ANTHROPIC_API_KEY: "sk-ant-…" } and nothing else
 */
export async function selectCredentials(request: CredentialRequest): Promise<Credentials> {
  const { provider } = parseModelRef(request.model);
  const authFile = request.authFile ?? defaultAuthFile(request.environment);
  const known = (await findKnownSecrets(request.environment, authFile, request.providers)).map(
    (secret) => secret.value,
  );
  if (provider === CONTROL_PROVIDER) return { env: {}, auth: null, secrets: known };

  const env: Record<string, string> = {};
  const secrets: string[] = [];
  const allowed = PROVIDER_ENV[provider];
  for (const name of allowed?.secrets ?? []) {
    const value = request.environment[name];
    if (!value) continue;
    env[name] = value;
    secrets.push(value);
  }
  for (const name of allowed?.settings ?? []) {
    const value = request.environment[name];
    if (value) env[name] = value;
  }

  const auth = await readAuthEntry(authFile, provider);
  if (auth) secrets.push(...stringLeaves(auth, ["type"]));
  return { env, auth, secrets: [...new Set([...secrets, ...known])] };
}

/** A missing or unreadable auth.json means "no entry": environment keys may still be enough. */
async function readAuthEntry(file: string, provider: string): Promise<Record<string, unknown> | null> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch {
    return null;
  }
  const parsed = AuthFileSchema.safeParse(safeJson(text));
  const entry = parsed.success ? parsed.data[provider] : undefined;
  return isRecord(entry) ? entry : null;
}

/** Every string in an auth entry (api `key`, oauth `access`/`refresh`, well-known `token`…) except the named fields. */
function stringLeaves(value: unknown, skipKeys: string[]): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap((item) => stringLeaves(item, skipKeys));
  if (!isRecord(value)) return [];
  return Object.entries(value)
    .filter(([key]) => !skipKeys.includes(key))
    .flatMap(([, item]) => stringLeaves(item, skipKeys));
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
