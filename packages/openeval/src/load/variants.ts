// benchmark.ts `variants` → VariantDefinitions: each variant's overrides with its files read, so the candidate
// fingerprint covers their contents and executing a candidate never reads the benchmark folder again.
import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { LoadProblem } from "./errors.ts";
import { isInside, resolveReal } from "./inside-benchmark.ts";
import type { BenchmarkSettings, VariantSettings } from "./schema.ts";

/** A candidate's agent setup: `current` has no overrides; every other variant only differences from it. */
export interface VariantDefinition {
  name: string;
  /** Laid as the candidate's global AGENTS.md (OpenCode's config dir), outside the workspace. */
  instructions: string | null;
  /** The OpenCode agent the session runs as. */
  agent: Record<string, unknown> | null;
  /** Merged over the harness's OpenCode config (never over the keys it enforces). */
  config: Record<string, unknown> | null;
  /** `workspace/…` or `config/…` path → text. */
  files: Record<string, string>;
}

export const CURRENT_VARIANT_NAME = "current";
export const CURRENT_VARIANT: VariantDefinition = {
  name: CURRENT_VARIANT_NAME,
  instructions: null,
  agent: null,
  config: null,
  files: {},
};

/** Reads every variant's files; an unreadable one is a problem naming the variant and the key. */
export async function loadVariants(
  directory: string,
  settings: BenchmarkSettings,
  problems: LoadProblem[],
): Promise<VariantDefinition[]> {
  const variants: VariantDefinition[] = [];
  for (const [name, variant] of Object.entries(settings.variants)) {
    const read = (value: string | { file: string }, key: string) =>
      readText(directory, value, `variants.${name}.${key}`, problems);
    const files: Record<string, string> = {};
    for (const [path, value] of Object.entries(variant.files ?? {}))
      files[path] = await read(value, `files["${path}"]`);
    variants.push({
      name,
      instructions: variant.instructions === undefined ? null : await read(variant.instructions, "instructions"),
      agent: variant.agent ?? null,
      config: variant.config ?? null,
      files,
    });
  }
  return variants;
}

async function readText(
  directory: string,
  value: VariantSettings["instructions"] & {},
  key: string,
  problems: LoadProblem[],
): Promise<string> {
  if (typeof value === "string") return value;
  // The file's text is laid into the candidate's workspace or config: only the benchmark's own files qualify.
  const real = resolveReal(resolve(directory, value.file));
  if (!isInside(resolveReal(directory), real)) {
    problems.push({
      file: "benchmark.ts",
      code: "OE_FILE_OUTSIDE_BENCHMARK",
      message: `${key}: "${value.file}" resolves to ${real}, outside the benchmark folder; the candidate would be handed it. Move the file into the benchmark folder and name it relative to it`,
    });
    return "";
  }
  try {
    return await readFile(real, "utf8");
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    problems.push({
      file: "benchmark.ts",
      message: `${key}: cannot read "${value.file}" (${reason}); give a readable file, relative to the benchmark folder`,
    });
    return "";
  }
}
