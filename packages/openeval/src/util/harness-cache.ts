// Where the harness keeps what it derives from content and can always make again (a bundled worker, judge.ts
// bundles): beside its own install, the usual home of tool caches. Entries are content-addressed, so a stale one is
// never read; a cache that cannot be written only costs speed.
import { fileURLToPath } from "node:url";

export const HARNESS_CACHE = fileURLToPath(new URL("../../node_modules/.cache/openeval/", import.meta.url));
