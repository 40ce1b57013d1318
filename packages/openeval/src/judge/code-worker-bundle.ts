// The code-judge worker as one bundled file (SPEC §8.1, §14): what a worker process loads at every grading, so
// everything it does not need for the grading at hand is left out or loaded on first use (issue 18 §3).
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BunPlugin } from "bun";
import { sha256 } from "../util/hash.ts";
import { writeFileAtomic } from "../util/files.ts";

export const WORKER_SOURCE = fileURLToPath(new URL("./code-worker.ts", import.meta.url));

/**
 * Bundles the worker with the harness code it grades with into `directory` (content-addressed) and returns the
 * file to run. A run freezes one when it starts, so a candidate that patches the harness's files cannot change a
 * grade (issue 14). Resolving and evaluating ~100 source modules was most of a worker's start (≈120 ms CPU); one
 * tree-shaken file with Bun's bytecode cache (which needs CommonJS, so the worker has no top-level await) loads in
 * a fraction of that. Modules a worker loads only on demand (the container client for ctx.verification, the OpenCode
 * server behind native.sdk()) stay outside it, imported from the harness install when a judge uses them.
 *
 * @example const worker = await bundleCodeWorker(join(inputs, "harness"));
 */
export async function bundleCodeWorker(directory: string): Promise<string> {
  const built = await Bun.build({
    entrypoints: [WORKER_SOURCE],
    target: "bun",
    format: "cjs",
    bytecode: true,
    minify: true,
    plugins: [LAZY_STAGES, await lazyBuiltins()],
  });
  const script = built.outputs.find((output) => output.path.endsWith(".js"));
  const bytecode = built.outputs.find((output) => output.path.endsWith(".jsc"));
  if (!built.success || !script || !bytecode) throw new Error(`bundling the code-judge worker failed: ${built.logs.join("; ")}`);
  const source = await script.text();
  // Bytecode is specific to the Bun build that made it; Bun ignores a cache that does not match its own.
  const file = join(directory, `code-worker-${sha256(`${Bun.revision}\n${source}`).slice(0, 16)}.js`);
  if (!existsSync(file)) {
    await writeFileAtomic(`${file}.jsc`, new Uint8Array(await bytecode.arrayBuffer()));
    await writeFileAtomic(file, source);
  }
  return file;
}

const LAZY_STAGES: BunPlugin = {
  name: "openeval-lazy-stages",
  setup(build) {
    build.onResolve({ filter: /(?:verification|opencode)\/index\.ts$/ }, (args) => ({ path: resolve(dirname(args.importer), args.path), external: true }));
  },
};

/**
 * Node's file-system modules (and node:os) cost a worker ~10 ms of CPU to load, more than the rest of the bundle; a
 * grading reads evidence through Bun.file and needs them only when a judge materializes a workspace, opens the native
 * database or makes a scratch folder. Bun resolves builtins before any plugin sees them, so the harness's own imports of
 * them are pointed at stand-ins whose functions load the module on their first call. Only functions are stood in
 * for: a class or constant imported from them fails this build, naming it.
 */
const LAZY_BUILTINS = ["node:fs", "node:fs/promises", "node:os"] as const;
const LAZY_NAMESPACE = "openeval-lazy-builtin";
const HARNESS_SOURCE = fileURLToPath(new URL("../", import.meta.url));

async function lazyBuiltins(): Promise<BunPlugin> {
  const standIns = new Map<string, string>();
  for (const name of LAZY_BUILTINS) {
    const functions = Object.entries(await import(name)).filter(([key, value]) => /^[a-z]\w*$/.test(key) && typeof value === "function");
    const load = `const load = () => process.getBuiltinModule(${JSON.stringify(name)});`;
    standIns.set(name, [load, ...functions.map(([key]) => `export function ${key}(...args) { return load().${key}(...args); }`)].join("\n"));
  }
  const specifier = new RegExp(`(\\bfrom\\s*)"(${LAZY_BUILTINS.join("|")})"`, "g");
  return {
    name: "openeval-lazy-builtins",
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, async (args) => {
        if (!args.path.startsWith(HARNESS_SOURCE)) return undefined;
        const text = await Bun.file(args.path).text();
        return { contents: text.replace(specifier, `$1"${LAZY_NAMESPACE}:$2"`), loader: "ts" };
      });
      build.onResolve({ filter: new RegExp(`^${LAZY_NAMESPACE}:`) }, (args) => ({ path: args.path.slice(LAZY_NAMESPACE.length + 1), namespace: LAZY_NAMESPACE }));
      build.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => ({ contents: standIns.get(args.path)!, loader: "js" }));
    },
  };
}
