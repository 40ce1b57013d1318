// Reads one control file from disk and validates it; every failure becomes a ControlFileError naming the path.
import { readFile } from "node:fs/promises";
import * as z from "zod";
import { ControlFileError } from "./errors.ts";
import { ControlFileSchema, type ControlFile } from "./schema.ts";

/**
 * Loads and validates a control file.
 *
 * @example
 * const positive = await loadControlFile("evals/add-flag/controls/positive.json");
 * const server = await startControlServer({ controls: { "add-flag": { positive } } });
 */
export async function loadControlFile(path: string): Promise<ControlFile> {
  const text = await readText(path);
  const parsed = ControlFileSchema.safeParse(parseJson(text, path));
  if (!parsed.success) {
    throw new ControlFileError("fieldsInvalid", path, z.prettifyError(parsed.error), { cause: parsed.error });
  }
  return parsed.data;
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ControlFileError("unreadable", path, reason, {
      cause,
    });
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    throw new ControlFileError("notJson", path, reason, {
      cause,
    });
  }
}
