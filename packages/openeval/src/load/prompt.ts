// prompt.md: the task sent verbatim to the candidate, once its optional front matter is stripped.
import matter from "gray-matter";
import { PromptFrontMatterSchema } from "./schema.ts";
import { describeZodIssues } from "../util/zod-issues.ts";
import { MAX_PROMPT_BYTES } from "../util/evidence-limits.ts";

export interface EvalPrompt {
  text: string;
  title?: string;
  tags?: string[];
}

export function parsePrompt(source: string): EvalPrompt {
  const bytes = Buffer.byteLength(source);
  if (bytes > MAX_PROMPT_BYTES) {
    throw new Error(`is ${bytes} bytes, over the ${MAX_PROMPT_BYTES}-byte limit for a prompt; move large material into workspace/ and refer to it`);
  }
  // gray-matter caches by input string and returns shared objects; pass a fresh options object to skip it.
  const parsed = matter(source, {});
  const frontMatter = PromptFrontMatterSchema.safeParse(parsed.data);
  if (!frontMatter.success) throw new Error(`front matter: ${describeZodIssues(frontMatter.error).join("; ")}`);
  const text = parsed.content.replace(/^\r?\n/, "");
  if (text.trim().length === 0) throw new Error("is empty; write the task the candidate should do");
  return { text, title: frontMatter.data.title, tags: frontMatter.data.tags };
}
