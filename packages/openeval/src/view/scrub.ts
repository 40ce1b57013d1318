// What a static export must not carry: credentials and this machine's paths. Known values are replaced first
// (the exporting user's secret-looking environment, OpenCode's auth.json, the run's and benchmark's folders, home,
// temp), then generic shapes (API keys, tokens, private keys, home folders of any user).
import { existsSync, readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { redactSecrets } from "../opencode/index.ts";

export const REDACTED = "[REDACTED]";

const SECRET_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL|AUTH|PRIVATE|COOKIE|SESSION)/i;

/** Credential shapes worth removing wherever they appear, known or not. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, REDACTED],
  [/\bsk-(?:ant-|proj-|or-|live-|test-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|xox[abposr]-[A-Za-z0-9-]{10,})/g, REDACTED],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, REDACTED],
  [/\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]{16,}/g, `$1$2${REDACTED}`],
  // key = value / "key": "value" for names that hold secrets.
  [/((?:api[_-]?key|apikey|secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|password|passwd|access[_-]?key)["']?\s*[:=]\s*["']?)([^\s"'\\,}{]{8,})/gi, `$1${REDACTED}`],
];

/** Home folders of any user, on Linux, macOS and Windows (JSON-escaped backslashes too). */
const HOME_PATTERNS: RegExp[] = [/(?<![\w.-])\/home\/[^/\s"'\\]+/g, /(?<![\w.-])\/Users\/[^/\s"'\\]+/g, /\b[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)[^\\\s"']+/g];

export interface ScrubOptions {
  /** Absolute folders to replace, each with its label (e.g. the run directory → "<run>"). */
  paths: { path: string; label: string }[];
  /** Exact secret values to remove. */
  secrets: string[];
}

export interface Scrubber {
  text(value: string): string;
}

export function createScrubber(options: ScrubOptions): Scrubber {
  // Longest first, so a folder inside another is replaced by its own label.
  const paths = options.paths.filter((entry) => entry.path.length > 1).sort((a, b) => b.path.length - a.path.length);
  return {
    text(value) {
      let result = redactSecrets(value, options.secrets);
      for (const [pattern, replacement] of SECRET_PATTERNS) result = result.replace(pattern, replacement);
      for (const { path, label } of paths) result = replacePath(result, path, label);
      for (const pattern of HOME_PATTERNS) result = result.replace(pattern, "~");
      return result;
    },
  };
}

/** The folders an export of `runDirectory` hides: the run, its benchmark, the working folder, temp and home. */
export function hostPaths(runDirectory: string, benchmarkDirectory: string): ScrubOptions["paths"] {
  return [
    { path: runDirectory, label: "<run>" },
    { path: benchmarkDirectory, label: "<benchmark>" },
    { path: process.cwd(), label: "<cwd>" },
    { path: tmpdir(), label: "<tmp>" },
    { path: "/tmp", label: "<tmp>" },
    { path: homedir(), label: "~" },
  ];
}

/** Secret-looking environment values of the exporting user, and every credential in OpenCode's auth.json. */
export function knownSecrets(env: NodeJS.ProcessEnv = process.env): string[] {
  const secrets = Object.entries(env)
    .filter(([name, value]) => SECRET_NAME.test(name) && value !== undefined && value.length >= 8)
    .map(([, value]) => value!);
  const dataHome = env.XDG_DATA_HOME || join(homedir(), ".local", "share");
  const authFile = join(dataHome, "opencode", "auth.json");
  if (existsSync(authFile)) {
    try {
      collectStrings(JSON.parse(readFileSync(authFile, "utf8")), secrets);
    } catch {
      // An unreadable auth.json holds nothing we could match anyway.
    }
  }
  return secrets;
}

function collectStrings(value: unknown, into: string[]): void {
  if (typeof value === "string" && value.length >= 16) into.push(value);
  else if (Array.isArray(value)) for (const item of value) collectStrings(item, into);
  else if (value && typeof value === "object") for (const item of Object.values(value)) collectStrings(item, into);
}

/** Replaces `path` where it is a whole path prefix (not inside a longer name), as is and JSON-escaped. */
function replacePath(text: string, path: string, label: string): string {
  const trimmed = path.replace(/[\\/]+$/, "");
  let result = text;
  for (const form of new Set([trimmed, JSON.stringify(trimmed).slice(1, -1)])) {
    const pattern = new RegExp(`(?<![\\w.-])${escapeRegExp(form)}(?![\\w.-])`, "g");
    result = result.replace(pattern, label);
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
