// prompt.md: the task sent verbatim to the candidate, once its optional front matter is stripped. It must be UTF-8
// text: a binary or mis-encoded file is refused rather than sent to the model as replacement characters.
import matter from "gray-matter";
import { PromptFrontMatterSchema } from "./schema.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { MAX_PROMPT_BYTES } from "../util/evidence-limits.ts";

export interface EvalPrompt {
  text: string;
  title?: string;
  tags?: string[];
}

/** Control characters other than tab, line feed and carriage return, and a byte-order mark past the first character. */
const NOT_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFEFF]/;

/** prompt.md's bytes as text: UTF-8, one leading byte-order mark dropped (editors write it; it carries nothing). */
function decodePrompt(bytes: Uint8Array): string {
  let source: string;
  try {
    source = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error(
      "is not UTF-8 text (a binary file, or another encoding such as UTF-16); save the task as UTF-8 text",
    );
  }
  const bad = NOT_TEXT.exec(source);
  if (bad) {
    const code = `U+${bad[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;
    throw new Error(
      `holds ${code} at character ${bad.index + 1}, which text does not (a binary file?); save the task as plain UTF-8 text`,
    );
  }
  return source;
}

export function parsePrompt(content: Uint8Array): EvalPrompt {
  const bytes = content.byteLength;
  if (bytes > MAX_PROMPT_BYTES) {
    throw new Error(
      `is ${bytes} bytes, over the ${MAX_PROMPT_BYTES}-byte limit for a prompt; move large material into workspace/ and refer to it`,
    );
  }
  const source = decodePrompt(content);
  // gray-matter caches by input string and returns shared objects; pass a fresh options object to skip it.
  const parsed = matter(source, {});
  const frontMatter = PromptFrontMatterSchema.safeParse(parsed.data);
  if (!frontMatter.success) throw new Error(`front matter: ${describeZodIssues(frontMatter.error).join("; ")}`);
  const text = parsed.content.replace(/^\r?\n/, "");
  if (text.trim().length === 0) throw new Error("is empty; write the task the candidate should do");
  return { text, title: frontMatter.data.title, tags: frontMatter.data.tags };
}
