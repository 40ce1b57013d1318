// An image's build context read from a folder of this checkout (images/verification/, images/candidate/): its files,
// hashed into the image's label so that a stale image is recognised, plus the generated vendor/ entries the
// builder adds (never read from disk).
import { readdir, readFile, stat } from "node:fs/promises";
import { join, relative, sep } from "node:path";
import { sha256 } from "../util/hash.ts";
import { ContainerError } from "./container/errors.ts";
import type { TarEntry } from "./tar.ts";

export interface ContextFile {
  path: string;
  data: Uint8Array;
  mode: number;
}

/**
 * Every regular file of the folder (sorted, forward slashes). `generated` (vendor/ of this checkout's image folders)
 * is added by the builder and never read from disk; null reads every file (an eval's own environment/).
 */
export async function readContextFiles(directory: string, generated: string | null = "vendor"): Promise<ContextFile[]> {
  const files: ContextFile[] = [];
  const walk = async (folder: string): Promise<void> => {
    for (const entry of await readdir(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      const name = relative(directory, path).split(sep).join("/");
      if (generated !== null && (name === generated || name.startsWith(`${generated}/`))) continue;
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile())
        files.push({ path: name, data: new Uint8Array(await readFile(path)), mode: (await stat(path)).mode & 0o777 });
      else
        throw new ContainerError({
          code: "OE_IMAGE_BUILD_FAILED",
          folder: directory,
          problem: `${name} is neither a file nor a folder; the image context holds plain files only`,
        });
    }
  };
  try {
    await walk(directory);
  } catch (error) {
    if (error instanceof ContainerError) throw error;
    throw new ContainerError(
      { code: "OE_IMAGE_BUILD_FAILED", folder: directory, problem: `it cannot be read: ${(error as Error).message}` },
      { cause: error },
    );
  }
  if (!files.some((file) => file.path === "Dockerfile")) {
    throw new ContainerError({
      code: "OE_IMAGE_BUILD_FAILED",
      folder: directory,
      problem: "it has no Dockerfile at its root; an image is built from the folder's Dockerfile",
    });
  }
  return files.sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** sha256 over each file's path, executable bit and content: the `openeval.context-hash` label. */
export function hashContext(files: ContextFile[]): string {
  const lines = files.map((file) => `${file.path}\0${file.mode & 0o111 ? "x" : "-"}\0${sha256(file.data)}\n`);
  return sha256(lines.join(""));
}

export function contextEntries(files: ContextFile[], vendor: TarEntry[]): TarEntry[] {
  return [
    ...files.map((file): TarEntry => ({ type: "file", path: file.path, data: file.data, mode: file.mode })),
    ...vendor,
  ];
}
