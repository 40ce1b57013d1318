// The image's build context: the files of images/verification/ (hashed into the image's label, so a stale image is
// recognised) plus the vendored npm packages that npm-packages.json pins.
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { sha256 } from "../../util/hash.ts";
import { VerificationError } from "./errors.ts";
import { NpmPackagesManifestSchema, type NpmPackagesManifest } from "./schema.ts";
import type { TarEntry } from "../../sandbox/index.ts";

/** images/verification/ of this checkout (repo root, five levels above this file). */
export const DEFAULT_CONTEXT_DIRECTORY = fileURLToPath(new URL("../../../../../images/verification/", import.meta.url));

export const NPM_PACKAGES_FILE = "npm-packages.json";

export interface ContextFile {
  path: string;
  data: Uint8Array;
  mode: number;
}

/** Every regular file of the folder (sorted, forward slashes); vendor/ is generated and never read from disk. */
export async function readContextFiles(directory: string): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(directory, path).split(sep).join("/");
      if (name === "vendor" || name.startsWith("vendor/")) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile()) files.push({ path: name, data: new Uint8Array(await readFile(path)), mode: (await stat(path)).mode & 0o777 });
      else throw new VerificationError("IMAGE_BUILD_FAILED", `${path} is neither a file nor a folder; the image context holds plain files only`);
    }
  };
  try {
    await walk(directory);
  } catch (error) {
    if (error instanceof VerificationError) throw error;
    throw new VerificationError("IMAGE_BUILD_FAILED", `Cannot read the image folder ${directory}: ${(error as Error).message}`, { cause: error });
  }
  if (!files.some((file) => file.path === "Dockerfile")) {
    throw new VerificationError("IMAGE_BUILD_FAILED", `${directory} has no Dockerfile; pass the images/verification folder`);
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** sha256 over each file's path, executable bit and content: the `openeval.context-hash` label. */
export function hashContext(files: ContextFile[]): string {
  const lines = files.map((file) => `${file.path}\0${file.mode & 0o111 ? "x" : "-"}\0${sha256(file.data)}\n`);
  return sha256(lines.join(""));
}

export function readNpmPackages(files: ContextFile[]): NpmPackagesManifest {
  const file = files.find((candidate) => candidate.path === NPM_PACKAGES_FILE);
  if (!file) return { packages: [] };
  const parsed = NpmPackagesManifestSchema.safeParse(JSON.parse(new TextDecoder().decode(file.data)));
  if (!parsed.success) throw new VerificationError("IMAGE_BUILD_FAILED", `images/verification/${NPM_PACKAGES_FILE} is malformed: ${parsed.error.message}`);
  return parsed.data;
}

export function contextEntries(files: ContextFile[], vendor: TarEntry[]): TarEntry[] {
  return [...files.map((file): TarEntry => ({ type: "file", path: file.path, data: file.data, mode: file.mode })), ...vendor];
}
