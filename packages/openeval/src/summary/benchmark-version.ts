// A benchmark folder's version as its files stand now, without reading them: what a recorded summary and the viewer's
// kept one are checked against (a summary made with other sources of benchmark.ts or a judge may not hold).
import { resolve } from "node:path";
import { sha256 } from "../util/hash.ts";
import { walkTree } from "../util/tree.ts";
import { NOT_BENCHMARK_SOURCE } from "./input-changes.ts";

/**
 * Every source file's modification time and size (results/ and installed packages aside), as of now: an edit to
 * benchmark.ts, to an eval's judge or to baseline.json (`baseline set`) changes it, as a fresh `openeval report` would
 * see it. Stamping a 2,500-eval benchmark (10,000 files) takes ~100 ms.
 * @example benchmarkVersion("./my-benchmark") // "9c1e…", or "missing" when the folder is gone
 */
export function benchmarkVersion(folder: string): string {
  try {
    // Absolute paths, so that "." and the same folder spelled in full stamp alike.
    const stamps = walkTree(resolve(folder), NOT_BENCHMARK_SOURCE).map((entry) =>
      entry.kind === "file"
        ? `${entry.absolute}:${entry.mtimeMs}:${entry.bytes}`
        : `${entry.absolute}->${entry.target}`,
    );
    return sha256(stamps.join("\n"));
  } catch {
    return "missing";
  }
}
