// The run's redaction list (`redactions.json`): the sha256 and length of every secret the runner redacted while
// recording, with where it came from — never a value. `export` scrubs with this list, so an export made from a
// shell without those secrets still finds them.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import * as z from "zod";
import { writeJsonAtomic } from "../util/files.ts";
import { sha256 } from "../util/hash.ts";

export const REDACTION_LIST_FILE = "redactions.json";

export const RedactionEntrySchema = z.object({
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  bytes: z.number().int().positive(),
  source: z.string(),
});
const RedactionListSchema = z.object({
  format: z.literal("openeval.redactions"),
  version: z.literal(1),
  entries: z.array(RedactionEntrySchema),
});

export type RedactionEntry = z.infer<typeof RedactionEntrySchema>;

export function readRedactionList(runDirectory: string): RedactionEntry[] {
  const file = join(runDirectory, REDACTION_LIST_FILE);
  if (!existsSync(file)) return [];
  const parsed = RedactionListSchema.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new Error(
      `${file} is not an openeval redaction list (${parsed.error.message}); restore it from a backup or delete it`,
    );
  return parsed.data.entries;
}

/** Adds entries (a resumed run may see more secrets than the first invocation did); never drops one. */
export async function recordRedactions(runDirectory: string, entries: readonly RedactionEntry[]): Promise<void> {
  const merged = new Map(readRedactionList(runDirectory).map((entry) => [entry.sha256, entry]));
  for (const entry of entries) if (!merged.has(entry.sha256)) merged.set(entry.sha256, entry);
  await writeJsonAtomic(join(runDirectory, REDACTION_LIST_FILE), {
    format: "openeval.redactions",
    version: 1,
    entries: [...merged.values()],
  });
}

/** Hashes of secrets, for the list: `{ value, source }` in, `{ sha256, bytes, source }` out. */
export function toRedactionEntries(secrets: readonly { value: string; source: string }[]): RedactionEntry[] {
  return secrets.map((secret) => ({
    sha256: sha256(secret.value),
    bytes: Buffer.byteLength(secret.value),
    source: secret.source,
  }));
}
