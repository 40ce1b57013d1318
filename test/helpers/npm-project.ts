// A user's own npm project that depends on the openeval tarball, installable without any registry: its
// package-lock.json takes every package the tarball needs from this repository's lock (the versions and integrity
// hashes `npm ci` installed here, so npm's cache holds them), and `npm ci --offline` installs exactly that.
import { readFile, writeFile } from "node:fs/promises";
import { basename, join } from "node:path";

const ROOT = join(import.meta.dirname, "..", "..");

interface LockEntry {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  [key: string]: unknown;
}

interface Manifest {
  version: string;
  dependencies: Record<string, string>;
  bundleDependencies: string[];
  bin: Record<string, string>;
}

/** Writes package.json and package-lock.json of a project in `directory` whose one dependency is `tarball`, a file
 * in that folder. */
export async function writeLockedProject(directory: string, tarball: string): Promise<void> {
  const manifest = readTarballManifest(tarball);
  const spec = `file:${basename(tarball)}`;
  const lock = JSON.parse(await readFile(join(ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, LockEntry>;
  };
  const packages: Record<string, LockEntry> = {
    "": { name: "my-project", dependencies: { openeval: spec } },
    "node_modules/openeval": {
      version: manifest.version,
      resolved: spec,
      bundleDependencies: manifest.bundleDependencies,
      dependencies: manifest.dependencies,
      bin: manifest.bin,
    },
  };
  const needed = Object.keys(manifest.dependencies).filter((name) => !manifest.bundleDependencies.includes(name));
  // openeval's own dependencies are hoisted to the top, here as in the user's project.
  const pending = needed.map((name) => ({ name, from: "", optional: false }));
  for (let next = pending.pop(); next; next = pending.pop()) {
    const found = locate(lock.packages, next.name, next.from);
    if (found === null && next.optional) continue;
    if (found === null)
      throw new Error(`${next.name} (needed by ${next.from || "openeval"}) is not in package-lock.json`);
    if (packages[found]) continue;
    const entry = lock.packages[found]!;
    // This repository's lock keeps only the platform packages of the platforms it was made on; npm cannot look the
    // others up offline, so the project's lock lists only those (as a lock made on this platform could).
    const optional = Object.entries(entry.optionalDependencies ?? {}).filter(
      ([name]) => locate(lock.packages, name, found) !== null,
    );
    packages[found] = entry.optionalDependencies
      ? { ...entry, optionalDependencies: Object.fromEntries(optional) }
      : entry;
    for (const name of Object.keys(entry.dependencies ?? {})) pending.push({ name, from: found, optional: false });
    for (const name of Object.keys({ ...entry.optionalDependencies, ...entry.peerDependencies }))
      pending.push({ name, from: found, optional: true });
  }
  // As docs/using-openeval.md says, the same decisions as this repository's: Bun and OpenCode put their platform
  // binaries in place in install scripts; the three that dockerode's dependencies bring are declined.
  const { allowScripts } = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as {
    allowScripts: Record<string, boolean>;
  };
  await writeJson(join(directory, "package.json"), {
    name: "my-project",
    private: true,
    dependencies: { openeval: spec },
    allowScripts,
  });
  await writeJson(join(directory, "package-lock.json"), {
    name: "my-project",
    lockfileVersion: 3,
    requires: true,
    packages,
  });
}

function readTarballManifest(tarball: string): Manifest {
  const read = Bun.spawnSync(["tar", "-xzOf", tarball, "package/package.json"], { stderr: "pipe" });
  if (read.exitCode !== 0) throw new Error(`cannot read ${basename(tarball)}: ${read.stderr.toString()}`);
  return JSON.parse(read.stdout.toString()) as Manifest;
}

/** Where Node's lookup finds `name` from the package at `from` (a lock key): its node_modules, then each one above. */
function locate(packages: Record<string, LockEntry>, name: string, from: string): string | null {
  for (let folder = from; ; ) {
    const key = folder === "" ? `node_modules/${name}` : `${folder}/node_modules/${name}`;
    if (packages[key] && !packages[key].link) return key;
    if (folder === "") return null;
    const parent = folder.lastIndexOf("/node_modules/");
    folder = parent >= 0 ? folder.slice(0, parent) : "";
  }
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}
