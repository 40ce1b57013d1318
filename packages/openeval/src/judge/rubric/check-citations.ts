// Checks the judge's citations against the recording: each cited item must exist, and an optional quote must occur
// in it (verbatim; runs of whitespace may differ, as models reflow them). Returns problems, never throws.
import type { JudgeContext } from "../../recording/index.ts";
import { decodeText, readMessages, safePath } from "./read-evidence.ts";
import { eventId, renderPart, renderTool } from "./render-evidence.ts";
import type { Citation } from "../../records/index.ts";

/** What a citation can point at: the texts a quote may come from, per id. */
interface Targets {
  messages: Map<string, string[]>;
  tools: Map<string, string[]>;
  events: Map<string, string[]>;
}

export interface CitationChecker {
  /** Problems with one citation, each prefixed with `at`. */
  check(citation: Citation, at: string): Promise<string[]>;
}

export function createCitationChecker(context: JudgeContext): CitationChecker {
  let targets: Promise<Targets> | null = null;
  const load = () => (targets ??= indexTargets(context));

  async function texts(citation: Citation): Promise<string[] | string> {
    switch (citation.kind) {
      case "response":
        return [context.response.text];
      case "message":
        return lookup(
          (await load()).messages,
          citation.id,
          "message",
          'message and part ids are printed by judge_evidence action "messages"',
        );
      case "tool":
        return lookup(
          (await load()).tools,
          citation.id,
          "tool call",
          'tool call ids are printed by judge_evidence action "tools"',
        );
      case "event":
        return lookup(
          (await load()).events,
          citation.id,
          "event",
          'event ids (<sessionID>#<sequence>) are printed by judge_evidence action "events"',
        );
      case "metric":
        return metricTexts(context, citation.id);
      case "file":
        return fileTexts(context, citation);
    }
  }

  return {
    async check(citation, at) {
      let found: string[] | string;
      try {
        found = await texts(citation);
      } catch (error) {
        found = error instanceof Error ? error.message : String(error);
      }
      if (typeof found === "string") return [`${at}: ${found}`];
      if (citation.quote === undefined) return [];
      if (citation.quote.trim() === "")
        return [`${at}: quote is empty; give exact text from the cited item or omit quote`];
      if (found.some((text) => containsQuote(text, citation.quote!))) return [];
      return [
        `${at}: quote ${JSON.stringify(abbreviate(citation.quote))} was not found in the cited ${citation.kind}; copy the text exactly from the evidence, or cite another item`,
      ];
    },
  };
}

async function indexTargets(context: JudgeContext): Promise<Targets> {
  const messages = new Map<string, string[]>();
  for (const session of await readMessages(context)) {
    for (const message of session.messages) {
      const parts = message.parts.map(renderPart);
      messages.set(message.info.id, parts);
      message.parts.forEach((part, index) => messages.set(part.id, [parts[index]!]));
    }
  }
  const tools = new Map(
    context.recording.tools().map((tool) => [tool.id, [renderTool(tool), ...stringLeaves(tool.input)]]),
  );
  const events = new Map(
    context.recording
      .events()
      .map((event) => [eventId(event), [JSON.stringify(event.event.data), ...stringLeaves(event.event.data)]]),
  );
  return { messages, tools, events };
}

function lookup(map: Map<string, string[]>, id: string | undefined, what: string, hint: string): string[] | string {
  if (id === undefined) return `a ${what} citation needs an id; ${hint}`;
  return map.get(id) ?? `${what} ${JSON.stringify(id)} is not in the recording; ${hint}`;
}

function metricTexts(context: JudgeContext, id: string | undefined): string[] | string {
  const hint = 'metric paths such as "tools.errorRate" or "cost.usd" follow judge_evidence action "metrics"';
  if (id === undefined) return `a metric citation needs an id; ${hint}`;
  let value: unknown = context.metrics;
  for (const key of id.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, key))
      return `metric ${JSON.stringify(id)} does not exist; ${hint}`;
    value = (value as Record<string, unknown>)[key];
  }
  return [JSON.stringify(value), JSON.stringify(value, null, 2)];
}

async function fileTexts(context: JudgeContext, citation: Citation): Promise<string[] | string> {
  if (citation.path === undefined)
    return 'a file citation needs a path; paths are listed by judge_evidence action "files"';
  const path = safePath(citation.path);
  const revision = citation.revision ?? "final";
  if (!context.workspace.files(revision).some((entry) => entry.path === path)) {
    return `file ${JSON.stringify(path)} is not in the ${revision} workspace; paths are listed by judge_evidence action "files"`;
  }
  const text = decodeText(await context.workspace.read(path, revision)) ?? "";
  // A quote may come from the diff of that file as well as from its content.
  const patches = (await context.workspace.patches(path)).map((diff) => diff.patch);
  return [text, ...patches];
}

function containsQuote(text: string, quote: string): boolean {
  return text.includes(quote) || collapse(text).includes(collapse(quote));
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function stringLeaves(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringLeaves);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(stringLeaves);
  return [];
}

function abbreviate(text: string): string {
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}
