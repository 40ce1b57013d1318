// npm packages for the image (Bun's binary, playwright-core), fetched with the ordinary npm client (`npm pack`),
// cached, and checked against the integrity pinned in images/verification/npm-packages.json before use.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { VerificationError } from "./errors.ts";
import type { NpmPackagesManifest } from "./npm-packages-manifest.ts";
import { unpackTar, type TarEntry } from "../../sandbox/index.ts";

type NpmPackage = NpmPackagesManifest["packages"][number];

export function defaultCacheDirectory(env: Record<string, string | undefined> = process.env): string {
  return join(env.XDG_CACHE_HOME || join(homedir(), ".cache"), "openeval", "npm-packs");
}

/** Every file of each package, moved from the tarball's `package/` to the package's `into` folder. */
export async function readVendorEntries(
  manifest: NpmPackagesManifest,
  cacheDirectory: string,
  onProgress?: (message: string) => void,
): Promise<TarEntry[]> {
  const entries: TarEntry[] = [];
  for (const pkg of manifest.packages) {
    const tarball = await fetchPackage(pkg, cacheDirectory, onProgress);
    for (const entry of unpackTar(gunzipSync(tarball))) {
      if (entry.type !== "file" || !entry.path.startsWith("package/")) continue;
      const relative = entry.path.slice("package/".length);
      if (relative.split("/").includes("..")) continue;
      entries.push({ type: "file", path: `${pkg.into}/${relative}`, data: entry.data, mode: entry.mode & 0o755 });
    }
  }
  return entries;
}

async function fetchPackage(
  pkg: NpmPackage,
  cacheDirectory: string,
  onProgress?: (message: string) => void,
): Promise<Uint8Array> {
  const file = join(cacheDirectory, `${pkg.name.replace(/^@/, "").replace("/", "-")}-${pkg.version}.tgz`);
  if (existsSync(file)) {
    const cached = new Uint8Array(await readFile(file));
    if (integrityOf(cached) === pkg.integrity) return cached;
  }
  onProgress?.(`npm pack ${pkg.name}@${pkg.version}`);
  const staging = join(cacheDirectory, `staging-${process.pid}-${Date.now()}`);
  await mkdir(staging, { recursive: true });
  let packed: { filename: string }[];
  try {
    const stdout = await run(
      "npm",
      ["pack", `${pkg.name}@${pkg.version}`, "--json", "--pack-destination", staging],
      cacheDirectory,
    );
    packed = JSON.parse(stdout) as { filename: string }[];
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new VerificationError("vendorFetchFailed", { pkg: `${pkg.name}@${pkg.version}`, reason }, { cause: error });
  }
  const data = new Uint8Array(await readFile(join(staging, packed[0]!.filename)));
  if (integrityOf(data) !== pkg.integrity) {
    throw new VerificationError("vendorIntegrityMismatch", {
      pkg: `${pkg.name}@${pkg.version}`,
      integrity: integrityOf(data),
      pinned: pkg.integrity,
    });
  }
  await rename(join(staging, packed[0]!.filename), file);
  return data;
}

export function integrityOf(data: Uint8Array): string {
  return `sha512-${createHash("sha512").update(data).digest("base64")}`;
}

function run(command: string, args: string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(command, args, { cwd, maxBuffer: 16 * 1024 * 1024, timeout: 600_000 }, (error, stdout, stderr) => {
      if (error)
        reject(new Error(`${error.message.split("\n")[0]} ${stderr.trim().split("\n").slice(-3).join(" ")}`.trim()));
      else resolve(stdout);
    });
  });
}
