// What a static export must not carry: credentials and this machine's paths. Known values are replaced first
// (the secrets the run recorded as redacted, matched by hash; the run's and benchmark's folders, home, temp),
// then generic shapes (API keys, tokens, private keys, home folders of any user). The exporting shell's own
// environment plays no part: an export must be as clean from a clean shell as from the recording one.
import { createHash } from "node:crypto";
import { homedir, tmpdir } from "node:os";
import { redactSecrets } from "../opencode/index.ts";
import type { RedactionEntry } from "../records/index.ts";

export const REDACTED = "[REDACTED]";

/**
 * Candidate secret tokens: runs of characters keys are made of, split at whitespace, quotes, brackets and
 * separators; each run and its parts around `=` / `:` are hashed and compared with the list.
 */
const TOKEN = /[^\s"'`\\,;(){}[\]<>]+/g;

/** Credential shapes worth removing wherever they appear, known or not. */
const SECRET_PATTERNS: [RegExp, string][] = [
  [/-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z ]*PRIVATE KEY-----/g, REDACTED],
  [/\bsk-(?:ant-|proj-|or-|live-|test-)?[A-Za-z0-9_-]{16,}/g, REDACTED],
  [
    /\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|glpat-[A-Za-z0-9_-]{20,}|hf_[A-Za-z0-9]{30,}|xox[abposr]-[A-Za-z0-9-]{10,})/g,
    REDACTED,
  ],
  [/\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/g, REDACTED],
  [/\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]{16,}/g, `$1$2${REDACTED}`],
  // key = value / "key": "value" for names that hold secrets.
  [
    /((?:api[_-]?key|apikey|secret|access[_-]?token|auth[_-]?token|refresh[_-]?token|password|passwd|access[_-]?key)["']?\s*[:=]\s*["']?)([^\s"'\\,}{]{8,})/gi,
    `$1${REDACTED}`,
  ],
];

/** Home folders of any user, on Linux, macOS and Windows (JSON-escaped backslashes too). */
const HOME_PATTERNS: RegExp[] = [
  /(?<![\w.-])\/home\/[^/\s"'\\]+/g,
  /(?<![\w.-])\/Users\/[^/\s"'\\]+/g,
  /\b[A-Za-z]:(?:\\\\|\\)Users(?:\\\\|\\)[^\\\s"']+/g,
];

export interface ScrubOptions {
  /** Absolute folders to replace, each with its label (e.g. the run directory → "<run>"). */
  paths: { path: string; label: string }[];
  /** Exact secret values to remove. */
  secrets: string[];
  /** The run's redaction list: secrets known only by sha256 and length. */
  redactions?: readonly RedactionEntry[];
}

export interface Scrubber {
  text(value: string): string;
}

export function createScrubber(options: ScrubOptions): Scrubber {
  // Longest first, so a folder inside another is replaced by its own label.
  const paths = options.paths.filter((entry) => entry.path.length > 1).sort((a, b) => b.path.length - a.path.length);
  const hashed = hashedSecrets(options.redactions ?? []);
  return {
    text(value) {
      let result = redactHashed(redactSecrets(value, options.secrets), hashed);
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

interface HashedSecrets {
  lengths: Set<number>;
  hashes: Set<string>;
}

function hashedSecrets(entries: readonly RedactionEntry[]): HashedSecrets {
  return {
    lengths: new Set(entries.map((entry) => entry.bytes)),
    hashes: new Set(entries.map((entry) => entry.sha256)),
  };
}

function redactHashed(text: string, secrets: HashedSecrets): string {
  if (secrets.hashes.size === 0) return text;
  const isSecret = (candidate: string) =>
    secrets.lengths.has(Buffer.byteLength(candidate)) &&
    secrets.hashes.has(createHash("sha256").update(candidate).digest("hex"));
  return text.replace(TOKEN, (token) => {
    if (isSecret(token)) return REDACTED;
    if (!/[=:]/.test(token)) return token;
    return token
      .split(/([=:]+)/)
      .map((part) => (isSecret(part) ? REDACTED : part))
      .join("");
  });
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
