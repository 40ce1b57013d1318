// judge.ts → a frozen bundle, WITHOUT executing it: local imports inlined, packages left external and their
// versions recorded. Identity = bundled code + imported package versions (never the checkout path). Criterion
// categories in `export const criteria` are metadata: cut from the bundled code, so they never change the identity.
import { dirname, join, relative } from "node:path";
import { readFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import { isBuiltin } from "node:module";
import { fileURLToPath } from "node:url";
import type { BunPlugin } from "bun";
import { fingerprint, sha256 } from "../util/hash.ts";
import { readCachedBundle, writeCachedBundle, type CachedBundle } from "./bundle-cache.ts";
import { LiteralError, readLiteral, type PropertySpan } from "./literal.ts";
import { CRITERION_ID } from "./schema.ts";
import { categoryKeys } from "./categories.ts";
import { HARNESS_PACKAGE, isHarnessImport, resolveJudgeImport } from "./resolve-judge-import.ts";
import { isInside, resolveReal } from "./inside-benchmark.ts";
import { CodedLoadError } from "./errors.ts";

export interface JudgeDependency {
  /** The package name as imported (`zod`, `@scope/pkg`), or a `node:`/`bun:` builtin. */
  name: string;
  version: string | null;
}

/** judge.ts's `export const criteria`: criterion ids, or labels keyed by id (a string, or `{ name }` / `{ label }`,
 * optionally with `categories`). */
export type CodeCriteria =
  | readonly string[]
  | Readonly<
      Record<
        string,
        string | { readonly name?: string; readonly label?: string; readonly categories?: readonly string[] }
      >
    >;

export interface DeclaredCriterion {
  id: string;
  label?: string;
  /** Category keys, trimmed and lowercased; empty when the entry has none. */
  categories: string[];
}

export interface CodeJudgeBundle {
  /** The bundled ES module, exactly as it will run. */
  source: string;
  dependencies: JudgeDependency[];
  /** From `export const criteria`, read without executing; null when judge.ts declares none. */
  criteria: DeclaredCriterion[] | null;
  identity: string;
}

/** One of each, made once: constructing a Bun.Transpiler costs more than scanning a judge with it. */
const SCAN_JS = new Bun.Transpiler({ loader: "js" });
const TRANSFORM_TS = new Bun.Transpiler({ loader: "ts" });

type PackageImport = CachedBundle["packages"][number];

const MACRO_IMPORT = /\b(?:with|assert)\s*\{\s*type\s*:\s*["']macro["']/;

/** A judge.ts whose bundle mentions `verification` (a text scan: it is never run to find out), so ctx.verification is set up for it. */
export function mentionsVerification(evaluation: { code: Pick<CodeJudgeBundle, "source"> | null }): boolean {
  return evaluation.code?.source.includes("verification") ?? false;
}

/**
 * Bundles judge.ts (or takes the cached bundle of the same files). Throws an Error whose message says what to fix
 * (the caller names the file). `benchmarkDirectory`: local imports must resolve inside it, as the judge is frozen
 * with them (packages resolve wherever their node_modules is); null when the caller names a judge file of its own
 * rather than one of a benchmark (judgeEvidence).
 */
export async function bundleCodeJudge(file: string, benchmarkDirectory: string | null): Promise<CodeJudgeBundle> {
  const root = dirname(file);
  const within = benchmarkDirectory === null ? null : resolveReal(benchmarkDirectory);
  let bundle = readCachedBundle(file);
  // A cache entry is keyed by judge.ts alone: the same judge elsewhere may import files outside its benchmark.
  if (within !== null && bundle?.localFiles.some((local) => !isInside(within, resolveReal(join(root, local.path)))))
    bundle = null;
  if (!bundle) {
    bundle = await buildBundle(file, within);
    await writeCachedBundle(file, bundle);
  }
  const dependencies = describeDependencies(bundle.packages, root);
  return {
    source: bundle.source,
    dependencies,
    criteria: bundle.criteria,
    identity: fingerprint({ source: bundle.source, dependencies }),
  };
}

async function buildBundle(file: string, within: string | null): Promise<CachedBundle> {
  const root = dirname(file);
  const packages: PackageImport[] = [];
  const localFiles = new Map<string, string>();
  const outside: string[] = [];
  const result = await Bun.build({
    entrypoints: [file],
    root,
    target: "bun",
    format: "esm",
    packages: "external",
    throw: false,
    plugins: [freezePlugin(packages, localFiles, root, file, { within, outside })],
  });
  if (outside.length > 0) {
    const names = [...new Set(outside)].sort().map((path) => `${relativePath(root, path)} (${resolveReal(path)})`);
    throw new CodedLoadError(
      "OE_JUDGE_IMPORT_OUTSIDE_BENCHMARK",
      `imports ${names.join(", ")}, outside the benchmark folder ${within}; a judge is frozen with the files it imports, so move them into the benchmark folder (or install them as a package)`,
    );
  }
  if (!result.success) {
    const messages = result.logs.map((log) => formatBuildLog(log, root));
    throw new Error(`does not compile: ${messages.join("; ")}`);
  }
  const output = result.outputs[0];
  if (!output) throw new Error("produced no bundle; check that it is a TypeScript module");
  const source = relativizeModuleComments(await output.text(), [...localFiles.keys()], root);
  const exports = SCAN_JS.scan(source).exports;
  if (!exports.includes("default")) {
    throw new Error("has no default export; write `export default (ctx: JudgeContext) => ({ scores: { ... } })`");
  }
  const criteria = exports.includes("criteria") ? await readDeclaredCriteria(file) : null;
  return {
    source,
    criteria,
    packages,
    localFiles: [...localFiles].map(([path, hash]) => ({ path: relativePath(root, path), sha256: hash })),
  };
}

/**
 * One entry per package (the first import of it decides where its version is read), sorted by name. Every import
 * must resolve now, not when grading (a judge that cannot import its packages would fail after the candidate was
 * paid for); checked on every load, a cached bundle included, since packages come and go without judge.ts changing.
 */
function describeDependencies(packages: readonly PackageImport[], root: string): JudgeDependency[] {
  const dependencies = new Map<string, JudgeDependency>();
  const unresolved = new Map<string, string>();
  const unprovided = new Map<string, string>();
  for (const { specifier, importer } of packages) {
    const name = packageName(specifier);
    const from = dirname(join(root, importer));
    const resolved = resolveJudgeImport(specifier, from);
    if (resolved === null && isHarnessImport(specifier)) unprovided.set(specifier, importer);
    else if (resolved === null) unresolved.set(name, importer);
    if (!dependencies.has(name))
      dependencies.set(name, { name, version: resolved === null ? null : packageVersion(name, resolved) });
  }
  if (unprovided.size > 0) {
    const names = [...unprovided].map(([specifier, importer]) => `"${specifier}" (imported by ${importer})`);
    throw new Error(
      `imports ${names.join(", ")}, which ${HARNESS_PACKAGE} does not provide; import from ${harnessEntryPoints().join(" or ")}`,
    );
  }
  if (unresolved.size > 0) {
    const names = [...unresolved].map(([name, importer]) => `"${name}" (imported by ${importer})`);
    throw new Error(
      `imports ${names.join(", ")}, which cannot be resolved from ${root}; install ${unresolved.size === 1 ? "it" : "them"} in the benchmark folder (npm install ${[...unresolved.keys()].join(" ")})`,
    );
  }
  return [...dependencies.values()].sort((a, b) => a.name.localeCompare(b.name));
}

function relativePath(root: string, file: string): string {
  return relative(root, file).split("\\").join("/");
}

/** Bun heads each inlined module with `// <path from the current directory>`; make it relative to judge.ts
 * instead, so the frozen source (and so the identity) does not depend on where the harness was started. */
function relativizeModuleComments(source: string, localFiles: readonly string[], root: string): string {
  let result = source;
  for (const file of localFiles) {
    const fromCwd = relative(process.cwd(), file).split("\\").join("/");
    result = result.replaceAll(`\n// ${fromCwd}\n`, `\n// ${relativePath(root, file)}\n`);
  }
  return result;
}

/** `bounds`: a local file (of any kind: code, JSON, text) outside `within` is never read, only listed in `outside`. */
function freezePlugin(
  packages: PackageImport[],
  localFiles: Map<string, string>,
  root: string,
  entry: string,
  bounds: { within: string | null; outside: string[] },
): BunPlugin {
  return {
    name: "openeval-freeze-judge",
    setup(build) {
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (/^[A-Za-z]:[\\/]/.test(args.path)) return undefined;
        packages.push({ specifier: args.path, importer: relativePath(root, args.importer) });
        return { path: args.path, external: true };
      });
      build.onLoad({ filter: /.*/ }, (args) => {
        if (bounds.within !== null && !isInside(bounds.within, resolveReal(args.path))) {
          bounds.outside.push(args.path);
          return { contents: "", loader: "js" };
        }
        // Every local file (code, JSON, text) is listed, so a cached bundle is checked against all it inlined.
        localFiles.set(args.path, sha256(readFileSync(args.path)));
        return undefined; // read by the next loader
      });
      // Macros run at bundle time: refusing them keeps "bundling never executes author code" true.
      build.onLoad({ filter: /\.[cm]?[jt]sx?$/ }, async (args) => {
        const contents = await readFile(args.path, "utf8");
        if (MACRO_IMPORT.test(contents)) {
          throw new Error(
            `${args.path} imports a Bun macro, which would run during bundling; macros are not allowed in judges`,
          );
        }
        return {
          contents: args.path === entry ? withoutCategories(contents) : contents,
          loader: args.path.endsWith("x") ? "tsx" : "ts",
        };
      });
    },
  };
}

function packageName(specifier: string): string {
  if (/^(node|bun):/.test(specifier)) return specifier;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : (parts[0] ?? specifier);
}

/** The version in the imported package's manifest, found by walking up from the file it resolves to. */
function packageVersion(name: string, resolved: string): string | null {
  if (isBuiltin(name)) return null;
  for (let directory = dirname(resolved); directory !== dirname(directory); directory = dirname(directory)) {
    const manifest = join(directory, "package.json");
    if (!existsSync(manifest)) continue;
    const parsed = JSON.parse(readFileSync(manifest, "utf8")) as { name?: string; version?: string };
    if (parsed.name === name) return parsed.version ?? null;
  }
  return null;
}

/** The harness's public entry points (its package.json `exports`), as a judge imports them. */
function harnessEntryPoints(): string[] {
  const manifest = JSON.parse(readFileSync(fileURLToPath(new URL("../../package.json", import.meta.url)), "utf8")) as {
    exports: Record<string, string>;
  };
  return Object.keys(manifest.exports).map((key) => join(HARNESS_PACKAGE, key));
}

const CRITERIA_EXPORT = /export\s+(?:const|let|var)\s+criteria\s*(?::[^=]*)?=\s*/;

/**
 * judge.ts with each `categories` of an `export const criteria` entry cut out, so that the bundle (and so the
 * identity) is the one the same judge without categories has. Left as written when the literal cannot be read here;
 * readDeclaredCriteria then says why.
 */
function withoutCategories(contents: string): string {
  const declaration = CRITERIA_EXPORT.exec(contents);
  if (!declaration) return contents;
  const spans: PropertySpan[] = [];
  try {
    readLiteral(contents, declaration.index + declaration[0].length, (span) => {
      if (span.path.length === 2 && span.path[1] === "categories") spans.push(span);
    });
  } catch (error) {
    if (error instanceof LiteralError) return contents;
    throw error;
  }
  let result = contents;
  for (const span of spans.reverse()) {
    const comma = /^\s*,/.exec(result.slice(span.end));
    result = result.slice(0, span.start) + result.slice(span.end + (comma?.[0].length ?? 0));
  }
  return result;
}

async function readDeclaredCriteria(file: string): Promise<DeclaredCriterion[]> {
  const javascript = TRANSFORM_TS.transformSync(await readFile(file, "utf8"));
  const declaration = CRITERIA_EXPORT.exec(javascript);
  if (!declaration) {
    throw new Error(
      "exports `criteria` but not as `export const criteria = <literal>`; declare it with plain literal values",
    );
  }
  let value: unknown;
  try {
    value = readLiteral(javascript, declaration.index + declaration[0].length);
  } catch (error) {
    if (error instanceof LiteralError)
      throw new Error(`\`export const criteria\` must be a plain literal: ${error.message}`);
    throw error;
  }
  return toDeclaredCriteria(value);
}

function toDeclaredCriteria(value: unknown): DeclaredCriterion[] {
  const entries: DeclaredCriterion[] = Array.isArray(value)
    ? value.map((id) => ({ id: String(id), categories: [] }))
    : value !== null && typeof value === "object"
      ? Object.entries(value).map(([id, meta]) => ({ id, label: labelOf(meta), categories: categoriesOf(id, meta) }))
      : [];
  if (entries.length === 0) {
    throw new Error("`export const criteria` must be a non-empty array of ids or an object keyed by id");
  }
  for (const entry of entries) {
    if (!CRITERION_ID.test(entry.id)) {
      throw new Error(`criterion id "${entry.id}" in \`export const criteria\` must match ${CRITERION_ID}`);
    }
  }
  return entries;
}

function labelOf(meta: unknown): string | undefined {
  if (typeof meta === "string") return meta;
  if (meta !== null && typeof meta === "object") {
    const record = meta as { label?: unknown; name?: unknown };
    const label = record.label ?? record.name;
    return typeof label === "string" ? label : undefined;
  }
  return undefined;
}

function categoriesOf(id: string, meta: unknown): string[] {
  if (meta === null || typeof meta !== "object" || !("categories" in meta)) return [];
  const where = `criterion "${id}" in \`export const criteria\``;
  if (!Array.isArray(meta.categories))
    throw new Error(`${where}: categories must be an array of names, e.g. ["speed"]`);
  return categoryKeys(meta.categories, where);
}

function formatBuildLog(
  log: { message: string; position?: { file: string; line: number; column: number } | null },
  root: string,
): string {
  const position = log.position;
  if (!position) return log.message;
  return `${relative(root, position.file) || position.file}:${position.line}:${position.column}: ${log.message}`;
}
