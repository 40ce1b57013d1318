import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { makeTempDir } from "../../../../test/helpers/fixtures.ts";
import { sha256 } from "../util/hash.ts";
import { bundleProgram } from "./bundle-program.ts";

interface Manifest {
  file: string;
  inputs: { path: string; sha256: string }[];
}

/** The cache's manifest of what its bundle was built from (one per Bun build and version of the bundler file). */
function manifestOf(cache: string): { path: string; manifest: Manifest } {
  const name = readdirSync(cache).find((entry) => /^code-worker-inputs-[0-9a-f]{16}\.json$/.test(entry));
  if (!name) throw new Error(`no manifest in ${cache}`);
  return { path: join(cache, name), manifest: JSON.parse(readFileSync(join(cache, name), "utf8")) as Manifest };
}

/** Puts a stand-in bundle in the cache and points the manifest at it: served only if the cache is trusted as is. */
function plantStandIn(cache: string, edit: (manifest: Manifest) => void = () => {}): string {
  const source = "// a stand-in, never built\n";
  const file = `code-worker-${sha256(`${Bun.revision}\n${source}`).slice(0, 16)}.js`;
  writeFileSync(join(cache, file), source);
  writeFileSync(join(cache, `${file}.jsc`), "stand-in bytecode");
  const { path, manifest } = manifestOf(cache);
  manifest.file = file;
  edit(manifest);
  writeFileSync(path, JSON.stringify(manifest));
  return file;
}

describe("bundleProgram's cache", () => {
  it("records every file it bundled with the sha256 of its bytes, and a run's copy is the cached bundle, byte for byte", async () => {
    const cache = await makeTempDir();
    const first = await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    const { manifest } = manifestOf(cache);
    expect(manifest.file).toBe(basename(first));
    expect(manifest.inputs.map((input) => input.path)).toContain(new URL("./code-worker.ts", import.meta.url).pathname);
    for (const input of manifest.inputs) expect(input.sha256).toBe(sha256(readFileSync(input.path)));

    const second = await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    expect(basename(second)).toBe(basename(first));
    expect(readFileSync(second)).toEqual(readFileSync(first));
    expect(readFileSync(`${second}.jsc`)).toEqual(readFileSync(`${first}.jsc`));
  });

  it("takes the cached bundle without building while every input hashes the same", async () => {
    const cache = await makeTempDir();
    await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    const standIn = plantStandIn(cache);
    const worker = await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    expect(basename(worker)).toBe(standIn); // a build would have made the real worker
    expect(readFileSync(`${worker}.jsc`, "utf8")).toBe("stand-in bytecode");
  });

  it("builds again when an input changed since, so a frozen worker is always the bundle of the files as they are", async () => {
    const cache = await makeTempDir();
    const real = basename(await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache));
    // As if code-worker.ts had been edited after the cached build: its recorded hash no longer matches the file.
    plantStandIn(
      cache,
      (manifest) =>
        (manifest.inputs.find((input) => input.path.endsWith("/judge/code-worker.ts"))!.sha256 =
          sha256("an older code-worker.ts")),
    );
    const worker = await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    expect(basename(worker)).toBe(real);
    expect(manifestOf(cache).manifest.file).toBe(real); // and the cache records the new build
  });

  it("builds again when the cached bundle is not the one the manifest names (edited in the cache)", async () => {
    const cache = await makeTempDir();
    const real = basename(await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache));
    const standIn = plantStandIn(cache);
    writeFileSync(join(cache, standIn), "// edited after the manifest was written\n");
    expect(basename(await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache))).toBe(real);
  });

  it("keeps one manifest per program: bundling the tool server leaves the worker's cached bundle in place, and neither takes the other's", async () => {
    const cache = await makeTempDir();
    await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache);
    const standIn = plantStandIn(cache);
    const tools = basename(await bundleProgram("judge-tools", join(await makeTempDir(), "harness"), cache));
    expect(tools).toMatch(/^judge-tools-[0-9a-f]{16}\.js$/);
    expect(
      readdirSync(cache)
        .filter((entry) => entry.endsWith(".json"))
        .sort(),
    ).toEqual([expect.stringMatching(/^code-worker-inputs-/), expect.stringMatching(/^judge-tools-inputs-/)]);
    expect(basename(await bundleProgram("code-worker", join(await makeTempDir(), "harness"), cache))).toBe(standIn);
    expect(basename(await bundleProgram("judge-tools", join(await makeTempDir(), "harness"), cache))).toBe(tools);
  });
});
