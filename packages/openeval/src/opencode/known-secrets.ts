// Every secret the runner can see, whoever it belongs to: the values of every auth.json entry and of every
// credential-shaped environment variable. Recordings redact all of them: a candidate that finds the
// user's auth.json by absolute path, or runs `env`, must not carry another provider's key into results/.
import { readFile } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { AuthFileSchema } from "./auth-schema.ts";
import { MIN_SECRET_LENGTH, redactBytes } from "./redact.ts";
import { isRecord } from "../util/is-record.ts";

/** Names that hold credentials (`*_KEY`, `*_TOKEN*`, `*_SECRET*`, `*_PASSWORD*`, `Proxy-Authorization`, …); values of the rest are settings. */
const CREDENTIAL_NAME =
  /(?:KEY$|KEY_ID$|_KEY_|APIKEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|PRIVATE|COOKIE|AUTHORIZATION|^AUTH|_AUTH$|_AUTH_)/i;

/** `<scheme> <token>`, as in an Authorization header. */
const AUTHORIZATION_VALUE = /^(?:Bearer|Basic|Token|Bot)\s+(\S+)$/i;

/** One secret and where it was seen (never the value itself in anything written). */
export interface KnownSecret {
  value: string;
  /** `env NAME` or `auth.json <provider>.<field>`. */
  source: string;
}

export function isCredentialName(name: string): boolean {
  return CREDENTIAL_NAME.test(name);
}

/** The user's OpenCode auth.json: `$XDG_DATA_HOME/opencode/auth.json`, else `~/.local/share/opencode/auth.json`. */
export function defaultAuthFile(environment: Record<string, string | undefined>): string {
  const dataHome = environment.XDG_DATA_HOME || join(environment.HOME || homedir(), ".local", "share");
  return join(dataHome, "opencode", "auth.json");
}

/**
 * @example
 * const secrets = await findKnownSecrets(process.env); // → [{ value: "sk-…", source: "env OPENAI_API_KEY" }, …]
 */
export async function findKnownSecrets(
  environment: Record<string, string | undefined>,
  authFile = defaultAuthFile(environment),
  providers: Record<string, unknown> = {},
): Promise<KnownSecret[]> {
  const found: KnownSecret[] = [];
  for (const [name, value] of Object.entries(environment)) {
    if (value && isCredentialName(name)) found.push({ value, source: `env ${name}` });
  }
  for (const [provider, entry] of Object.entries(await readAuthFile(authFile)))
    collectLeaves(entry, `auth.json ${provider}`, found);
  collectCredentialFields(providers, "candidate.providers", found);
  const seen = new Set<string>();
  return [...found, ...found.flatMap(schemeToken)].filter(
    (secret) => secret.value.length >= MIN_SECRET_LENGTH && seen.size < seen.add(secret.value).size,
  );
}

/** An `Authorization` value's token alone (`Bearer <token>`): a candidate can print or encode just that part. */
function schemeToken(secret: KnownSecret): KnownSecret[] {
  const token = AUTHORIZATION_VALUE.exec(secret.value.trim())?.[1];
  return token ? [{ value: token, source: `${secret.source} (token)` }] : [];
}

/**
 * The secrets `data` holds in any form redaction removes (so exactly those recording it would redact).
 * @example findSecretsIn(readFileSync("config.json"), secrets) // → [{ value: "sk-…", source: "env OPENAI_API_KEY" }]
 */
export function findSecretsIn(data: Uint8Array | string, secrets: readonly KnownSecret[]): KnownSecret[] {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const holds = (values: string[]) => !Buffer.from(redactBytes(bytes, values)).equals(bytes);
  return holds(secrets.map((secret) => secret.value)) ? secrets.filter((secret) => holds([secret.value])) : [];
}

/** A missing or malformed auth.json holds nothing to redact. */
async function readAuthFile(file: string): Promise<Record<string, unknown>> {
  try {
    const parsed = AuthFileSchema.safeParse(JSON.parse(await readFile(file, "utf8")));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Strings under credential-shaped keys of benchmark.ts provider config (`options.apiKey`, an `Authorization` header…). */
function collectCredentialFields(value: unknown, source: string, into: KnownSecret[]): void {
  if (!isRecord(value)) return;
  for (const [key, item] of Object.entries(value)) {
    if (isCredentialName(key)) collectLeaves(item, `${source}.${key}`, into);
    else collectCredentialFields(item, `${source}.${key}`, into);
  }
}

/** Every string of an entry (api `key`, oauth `access`/`refresh`, well-known `token`, …) except its `type`. */
function collectLeaves(value: unknown, source: string, into: KnownSecret[]): void {
  if (typeof value === "string") into.push({ value, source });
  else if (Array.isArray(value)) value.forEach((item, index) => collectLeaves(item, `${source}[${index}]`, into));
  else if (isRecord(value)) {
    for (const [key, item] of Object.entries(value)) if (key !== "type") collectLeaves(item, `${source}.${key}`, into);
  }
}
