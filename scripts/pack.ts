// Packs openeval into one npm tarball that installs and runs outside this repository (`npm run pack -- [<dir>]`,
// default: the current folder). The CLI and library (packages/openeval) run with two workspace packages that are
// not published, the control model and the viewer's front end: the tarball carries them as bundled dependencies,
// and the viewer's own dependencies become openeval's; with the sandbox images' build contexts (images/), the
// templates `openeval init` writes, and the documentation it points to (docs/, llms.txt). Tests and their fixtures
// stay out.
import { cp, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join, resolve } from "node:path";

const PACKAGES = join(import.meta.dirname, "..", "packages");
const TEST_FILE = /\.(?:test|engine-test|case)\.tsx?$/;
const BUNDLED = { "@openeval/control-model": "control-model", "@openeval/viewer": "viewer" } as const;

interface Manifest {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

const destination = resolve(process.argv[2] ?? ".");
const staging = await mkdtemp(join(tmpdir(), "openeval-pack-"));
try {
  console.log(await pack(staging, destination));
} finally {
  await rm(staging, { recursive: true, force: true });
}

async function pack(staging: string, destination: string): Promise<string> {
  const openeval = await readManifest("openeval");
  const dependencies = { ...openeval.dependencies };
  for (const [name, folder] of Object.entries(BUNDLED)) {
    const manifest = await readManifest(folder);
    const { devDependencies: _, dependencies: own = {}, ...rest } = manifest;
    // What a bundled package depends on is installed beside openeval; openeval itself is the package they are in.
    for (const [dependency, version] of Object.entries(own))
      if (dependency !== openeval.name) dependencies[dependency] = version;
    dependencies[name] = manifest.version;
    await copySources(join(PACKAGES, folder), join(staging, "node_modules", name), ["src", "README.md"]);
    await writeManifest(join(staging, "node_modules", name), rest);
  }
  // templates/: what `openeval init` writes (src/scaffold/templates.ts).
  await copySources(join(PACKAGES, "openeval"), staging, ["bin", "src", "templates"]);
  // The sandbox images' build contexts, which `openeval image` reads from the package (src/util/images-directory.ts);
  // the guides `openeval init` points to, docs/writing-evals.md and llms.txt, with the pages they link.
  await copySources(join(PACKAGES, ".."), staging, ["images", "docs", "llms.txt"]);
  const { devDependencies: _, ...published } = openeval;
  await writeManifest(staging, {
    ...published,
    dependencies: sorted(dependencies),
    bundleDependencies: Object.keys(BUNDLED),
  });
  const packed = Bun.spawnSync(["npm", "pack", staging, "--pack-destination", destination, "--json"], {
    stderr: "inherit",
  });
  if (packed.exitCode !== 0) throw new Error(`npm pack failed (exit ${packed.exitCode})`);
  const [{ filename }] = JSON.parse(packed.stdout.toString()) as [{ filename: string }];
  return join(destination, basename(filename));
}

async function readManifest(folder: string): Promise<Manifest> {
  return JSON.parse(await readFile(join(PACKAGES, folder, "package.json"), "utf8")) as Manifest;
}

async function writeManifest(folder: string, manifest: Record<string, unknown>): Promise<void> {
  await writeFile(join(folder, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
}

async function copySources(from: string, to: string, entries: string[]): Promise<void> {
  for (const entry of entries) {
    await cp(join(from, entry), join(to, entry), {
      recursive: true,
      filter: (source) => !TEST_FILE.test(source) && basename(source) !== "fixtures",
    });
  }
}

function sorted(record: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));
}
