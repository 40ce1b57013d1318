// judge.ts bundles kept between loads: bundling is most of loading a large benchmark, and the same
// judge.ts with the same local files always bundles to the same code. An entry names every local file the bundle
// inlined with its sha256; a hit re-reads and re-hashes them. Package versions are not cached: they are part of the
// identity and change without judge.ts changing, so the caller resolves them again from the recorded imports. Reads are
// synchronous: a benchmark loads before anything else runs, and an async read costs several times the CPU.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as z from "zod";
import { sha256 } from "../util/hash.ts";
import { HARNESS_CACHE } from "../util/harness-cache.ts";
import { writeJsonAtomic } from "../util/files.ts";

/** Bump when what a cached entry means changes (its fields, or how a bundle is made). */
const CACHE_FORMAT = "openeval.judge-bundle.3";
const DIRECTORY = join(HARNESS_CACHE, "judge-bundles");

const CachedBundleSchema = z.object({
  format: z.literal(CACHE_FORMAT),
  source: z.string(),
  criteria: z
    .array(z.object({ id: z.string(), label: z.string().optional(), categories: z.array(z.string()) }))
    .nullable(),
  /** Package imports left external, in the order the bundler met them; paths relative to judge.ts's folder. */
  packages: z.array(z.object({ specifier: z.string(), importer: z.string() })),
  localFiles: z.array(z.object({ path: z.string(), sha256: z.string() })),
});

export type CachedBundle = Omit<z.infer<typeof CachedBundleSchema>, "format">;

/** The cached bundle of `file`, or null when there is none or any file it inlined has changed. */
export function readCachedBundle(file: string): CachedBundle | null {
  const content = readFileSync(file);
  let entry: CachedBundle;
  try {
    const parsed = CachedBundleSchema.safeParse(JSON.parse(readFileSync(entryPath(content), "utf8")));
    if (!parsed.success) return null;
    entry = parsed.data;
  } catch {
    return null; // no entry yet
  }
  const root = dirname(file);
  for (const local of entry.localFiles) {
    try {
      if (sha256(readFileSync(join(root, local.path))) !== local.sha256) return null;
    } catch {
      return null; // an inlined file is gone: bundle again, which reports it
    }
  }
  return entry;
}

export async function writeCachedBundle(file: string, bundle: CachedBundle): Promise<void> {
  try {
    await writeJsonAtomic(entryPath(readFileSync(file)), { format: CACHE_FORMAT, ...bundle });
  } catch {
    // Read-only install: every load bundles again.
  }
}

/** Bun's revision is part of the key: another bundler may inline the same files differently. */
function entryPath(content: Uint8Array): string {
  return join(DIRECTORY, `${sha256(Buffer.concat([Buffer.from(`${CACHE_FORMAT}\n${Bun.revision}\n`), content]))}.json`);
}
