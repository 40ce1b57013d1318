// A frozen bundle keeps its package imports bare; before it runs they are pinned to files: packages resolve from
// the eval folder, and `openeval` itself resolves to the harness that is grading, wherever the eval lives.
// (Bun's runtime plugins do not see bare imports of a dynamically imported file, and its auto-install would
// otherwise fetch a missing package from the network.)
import { resolveJudgeImport } from "../load/index.ts";

/** Made once: constructing a Bun.Transpiler costs more than scanning a bundle with it. */
const SCAN_JS = new Bun.Transpiler({ loader: "js" });

export function linkImports(source: string, evalDirectory: string): string {
  const imports = SCAN_JS.scan(source).imports.map((entry) => entry.path);
  let linked = source;
  for (const specifier of new Set(imports)) {
    if (specifier.startsWith(".") || specifier.startsWith("/") || /^(node|bun):/.test(specifier)) continue;
    const resolved = resolveJudgeImport(specifier, evalDirectory);
    // Left bare when it does not resolve: the worker's import fails and reports the missing package by name.
    if (resolved === null || resolved === specifier) continue;
    const quoted = new RegExp(`(from\\s*|import\\s*\\(?\\s*)(["'])${escapeRegExp(specifier)}\\2`, "g");
    linked = linked.replace(quoted, (_match, prefix: string) => `${prefix}${JSON.stringify(resolved)}`);
  }
  return linked;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
