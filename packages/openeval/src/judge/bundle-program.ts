// The harness's own programs that run as separate Bun processes (the code-judge worker, the rubric judge's tool
// server), each as one bundled file: what such a process loads at every start, so everything it does not need is
// left out or loaded on first use. Built once per set of inputs: the harness cache keeps each program's
// last bundle with the hashes of the files it was made from.
import { existsSync, readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BunPlugin } from "bun";
import * as z from "zod";
import { HARNESS_CACHE } from "../util/harness-cache.ts";
import { sha256, sha256OfFile } from "../util/hash.ts";
import { writeFileAtomic, writeJsonAtomic } from "../util/files.ts";

/** Each program's entry file; its name prefixes its bundle and its cache manifest. */
export const PROGRAMS = {
  "code-worker": fileURLToPath(new URL("./code-worker.ts", import.meta.url)),
  "judge-tools": fileURLToPath(new URL("./rubric/tools-server.ts", import.meta.url)),
} as const;
export type Program = keyof typeof PROGRAMS;

/**
 * Bundles a program with the harness code it runs into `directory` (content-addressed) and returns the file to run.
 * A run freezes its programs when it starts, so a candidate that patches the harness's files cannot change a grade.
 * Resolving and evaluating ~100 source modules was most of a process's start (≈120 ms CPU for a worker); one
 * tree-shaken file with Bun's bytecode cache (which needs CommonJS, so no program has top-level await) loads in a
 * fraction of that. Modules a program loads only on demand (the container client for ctx.verification, the OpenCode
 * server behind native.sdk()) stay outside it, imported from the harness install when a judge uses them.
 * When `cache` holds a bundle of the program made from the same bytes (every file it bundled hashes the same), that
 * bundle is copied instead of built again: the same file, ~1 ms instead of ~70–100 ms of every run's start.
 *
 * @example const worker = await bundleProgram("code-worker", join(inputs, "harness"));
 */
export async function bundleProgram(program: Program, directory: string, cache = HARNESS_CACHE): Promise<string> {
  const reused = await copyCachedBundle(program, directory, cache);
  if (reused !== null) return reused;
  const read = new Map<string, string>();
  const built = await Bun.build({
    entrypoints: [PROGRAMS[program]],
    target: "bun",
    format: "cjs",
    bytecode: true,
    minify: true,
    metafile: true,
    plugins: [LAZY_STAGES, await lazyBuiltins(read)],
  });
  const script = built.outputs.find((output) => output.path.endsWith(".js"));
  const bytecode = built.outputs.find((output) => output.path.endsWith(".jsc"));
  if (!built.success || !script || !bytecode)
    throw new Error(`bundling the harness's ${program} failed: ${built.logs.join("; ")}`);
  const source = await script.text();
  const bytes = new Uint8Array(await bytecode.arrayBuffer());
  const file = join(directory, bundleName(program, source));
  if (!existsSync(file)) {
    await writeFileAtomic(`${file}.jsc`, bytes);
    await writeFileAtomic(file, source);
  }
  await rememberBundle(program, cache, bundleInputs(built.metafile, read), source, bytes).catch(() => undefined); // a cache that cannot be written only costs speed
  return file;
}

const harnessBundles = new Map<Program, Promise<string>>();

/**
 * The harness's own bundle of a program, made once per process into the cache, for work outside a run (which uses
 * the copy it froze); the entry source itself when it cannot be bundled.
 *
 * @example const server = await harnessProgram("judge-tools");
 */
export function harnessProgram(program: Program): Promise<string> {
  let bundle = harnessBundles.get(program);
  if (!bundle) {
    bundle = bundleProgram(program, HARNESS_CACHE).catch(() => PROGRAMS[program]);
    harnessBundles.set(program, bundle);
  }
  return bundle;
}

// Bytecode is specific to the Bun build that made it; Bun ignores a cache that does not match its own.
const bundleName = (program: Program, source: string) =>
  `${program}-${sha256(`${Bun.revision}\n${source}`).slice(0, 16)}.js`;

/**
 * What a bundle was built from, so the next run can take the same bytes without building (a noticeable part of a
 * run's start): every input file with its sha256, per Bun build and per version of this file (its plugins shape the
 * output). Reused only when every input still hashes the same, so a frozen program is always the bundle of the
 * harness's files as they are when the run starts, exactly as a fresh build would make it.
 */
const BundleManifestSchema = z.object({
  format: z.literal("openeval.program-inputs.1"),
  file: z.string().regex(/^[a-z-]+-[0-9a-f]{16}\.js$/),
  inputs: z.array(z.object({ path: z.string(), sha256: z.string() })),
});
type BundleManifest = z.infer<typeof BundleManifestSchema>;

let bundlerVersion: string | undefined;
function manifestPath(program: Program, cache: string): string {
  bundlerVersion ??= sha256(`${Bun.revision}\n${readFileSync(fileURLToPath(import.meta.url), "utf8")}`).slice(0, 16);
  return join(cache, `${program}-inputs-${bundlerVersion}.json`);
}

/** The cached bundle copied into `directory` when its inputs are unchanged, else null (build it). */
async function copyCachedBundle(program: Program, directory: string, cache: string): Promise<string | null> {
  try {
    const manifest = await readManifest(manifestPath(program, cache));
    if (manifest === null || !manifest.inputs.every((input) => sha256OfFile(input.path) === input.sha256)) return null;
    const cached = join(cache, manifest.file);
    const source = await readFile(cached, "utf8");
    if (bundleName(program, source) !== manifest.file) return null; // not the bytes the manifest was written for
    const file = join(directory, manifest.file);
    if (file !== cached && !existsSync(file)) {
      await writeFileAtomic(`${file}.jsc`, await readFile(`${cached}.jsc`));
      await writeFileAtomic(file, source);
    }
    return file;
  } catch {
    return null; // no cache yet, or one that cannot be read: build
  }
}

async function rememberBundle(
  program: Program,
  cache: string,
  inputs: BundleManifest["inputs"] | null,
  source: string,
  bytecode: Uint8Array,
): Promise<void> {
  if (inputs === null) return;
  const file = bundleName(program, source);
  if (!existsSync(join(cache, file))) {
    await writeFileAtomic(join(cache, `${file}.jsc`), bytecode);
    await writeFileAtomic(join(cache, file), source);
  }
  await writeJsonAtomic(manifestPath(program, cache), {
    format: "openeval.program-inputs.1",
    file,
    inputs,
  } satisfies BundleManifest);
}

/**
 * Every file the build bundled, with the sha256 of the bytes the loader read for it (so no file can change between
 * being bundled and being hashed); null when the metafile (which names inputs relative to the working directory)
 * lists one the loader did not read, and the bundle is not cached.
 */
function bundleInputs(
  metafile: Bun.BuildOutput["metafile"],
  read: ReadonlyMap<string, string>,
): BundleManifest["inputs"] | null {
  if (!metafile) return null;
  const inputs: BundleManifest["inputs"] = [];
  for (const input of Object.keys(metafile.inputs)) {
    if (input.startsWith(`${LAZY_NAMESPACE}:`)) continue; // made by this file from the Bun build: in the manifest's name
    const path = resolve(process.cwd(), input);
    const hash = read.get(path);
    if (hash === undefined) return null;
    inputs.push({ path, sha256: hash });
  }
  return inputs;
}

async function readManifest(path: string): Promise<BundleManifest | null> {
  const parsed = BundleManifestSchema.safeParse(JSON.parse(await readFile(path, "utf8")));
  return parsed.success ? parsed.data : null;
}

const LAZY_STAGES: BunPlugin = {
  name: "openeval-lazy-stages",
  setup(build) {
    build.onResolve({ filter: /(?:verification|opencode)\/index\.ts$/ }, (args) => ({
      path: resolve(dirname(args.importer), args.path),
      external: true,
    }));
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
const loaderOf = (path: string) => (path.endsWith(".ts") ? "ts" : path.endsWith(".json") ? "json" : "js");
const LAZY_NAMESPACE = "openeval-lazy-builtin";
const HARNESS_SOURCE = fileURLToPath(new URL("../", import.meta.url));

async function lazyBuiltins(read: Map<string, string>): Promise<BunPlugin> {
  const standIns = new Map<string, string>();
  for (const name of LAZY_BUILTINS) {
    const functions = Object.entries(await import(name)).filter(
      ([key, value]) => /^[a-z]\w*$/.test(key) && typeof value === "function",
    );
    const load = `const load = () => process.getBuiltinModule(${JSON.stringify(name)});`;
    standIns.set(
      name,
      [load, ...functions.map(([key]) => `export function ${key}(...args) { return load().${key}(...args); }`)].join(
        "\n",
      ),
    );
  }
  const specifier = new RegExp(`(\\bfrom\\s*)"(${LAZY_BUILTINS.join("|")})"`, "g");
  return {
    name: "openeval-lazy-builtins",
    setup(build) {
      // Every file of the bundle is loaded here, its bytes hashed into `read` for the cache manifest.
      build.onLoad({ filter: /\.(?:ts|[cm]?js|json)$/ }, async (args) => {
        const bytes = await Bun.file(args.path).bytes();
        read.set(args.path, sha256(bytes));
        const text = new TextDecoder().decode(bytes);
        const harness = args.path.startsWith(HARNESS_SOURCE) && args.path.endsWith(".ts");
        return {
          contents: harness ? text.replace(specifier, `$1"${LAZY_NAMESPACE}:$2"`) : text,
          loader: loaderOf(args.path),
        };
      });
      build.onResolve({ filter: new RegExp(`^${LAZY_NAMESPACE}:`) }, (args) => ({
        path: args.path.slice(LAZY_NAMESPACE.length + 1),
        namespace: LAZY_NAMESPACE,
      }));
      build.onLoad({ filter: /.*/, namespace: LAZY_NAMESPACE }, (args) => ({
        contents: standIns.get(args.path)!,
        loader: "js",
      }));
    },
  };
}
