// judge.md: the LLM rubric. Criteria are `## Criterion: <id> — <label>` headings (em dash, en dash or hyphen);
// each criterion's text runs to the next heading of the same or higher level. `Categories: a, b` and
// `Ceiling: reference_fix` lines directly under a criterion heading are metadata: they are taken out of the text the
// judge reads (the fingerprint takes them apart).
import { unified } from "unified";
import remarkParse from "remark-parse";
import { toString } from "mdast-util-to-string";
import type { Heading, Root } from "mdast";
import { CRITERION_ID } from "./schema.ts";
import { categoryKeys } from "./categories.ts";

export interface RubricCriterion {
  id: string;
  label: string;
  /** The guidance under the heading, verbatim (without its Categories line). */
  text: string;
  /** Category keys from the `Categories:` line, trimmed and lowercased; empty when there is none. */
  categories: string[];
  /** `Ceiling: reference_fix`: its score is capped at the reference-fix scorer's value. */
  ceiling?: RubricCeiling;
}

/** What may cap a criterion's score: the eval's reference fix, scored by the harness (judge/scorers/reference-fix.ts). */
export const RUBRIC_CEILINGS = ["reference_fix"] as const;
export type RubricCeiling = (typeof RUBRIC_CEILINGS)[number];

export interface Rubric {
  /** judge.md without its Categories lines: what the judge reads and the judge fingerprint hashes. */
  text: string;
  title: string | null;
  criteria: RubricCriterion[];
}

const CRITERION_HEADING = /^Criterion:\s*(\S+)\s*[—–-]\s*(.+)$/;

/** Parses judge.md. Throws an Error whose message says what to fix (the caller adds the file name). */
export function parseRubric(source: string): Rubric {
  const problems: string[] = [];
  const { text, originLine, categoriesAt, ceilingAt } = takeMetadataLines(source, problems);
  const tree = unified().use(remarkParse).parse(text) as Root;
  const criteria: RubricCriterion[] = [];
  let title: string | null = null;
  const headings = tree.children
    .map((node, index) => ({ node, index }))
    .filter((entry): entry is { node: Heading; index: number } => entry.node.type === "heading");

  headings.forEach(({ node }, position) => {
    const heading = toString(node).trim();
    const line = originLine(node.position?.start.line ?? 0);
    if (node.depth === 1 && title === null) title = heading;
    if (node.depth !== 2) return;
    if (/^Metric:/i.test(heading)) {
      problems.push(`line ${line}: "## ${heading}" is the old syntax; write "## Criterion: <id> — <label>"`);
      return;
    }
    if (!/^Criterion\b/i.test(heading)) return;
    const match = CRITERION_HEADING.exec(heading);
    if (!match || !heading.startsWith("Criterion:")) {
      problems.push(`line ${line}: malformed heading "## ${heading}"; write "## Criterion: <id> — <label>"`);
      return;
    }
    const [, id = "", label = ""] = match;
    if (!CRITERION_ID.test(id)) {
      problems.push(`line ${line}: criterion id "${id}" must match ${CRITERION_ID} (lowercase letters, digits, _)`);
      return;
    }
    if (criteria.some((criterion) => criterion.id === id)) {
      problems.push(`line ${line}: duplicate criterion id "${id}"; give each criterion its own id`);
      return;
    }
    const categories = categoriesAt.get(line) ?? [];
    const ceiling = ceilingAt.get(line);
    criteria.push({
      id,
      label: label.trim(),
      text: sectionText(text, node, nextSection(headings, position)),
      categories,
      ...(ceiling ? { ceiling } : {}),
    });
  });

  if (problems.length > 0) throw new Error(problems.join("; "));
  if (criteria.length === 0) {
    throw new Error('has no criteria; add at least one "## Criterion: <id> — <label>" section');
  }
  return { text, title, criteria };
}

/**
 * The criteria judge.md declares, as OpenEval's `rubricCriteria` gives them (`{ id, name }`); throws what to fix.
 * @example rubricCriteria("## Criterion: correct — The answer is right\n...") // [{ id: "correct", name: "The answer is right" }]
 */
export function rubricCriteria(text: string): { id: string; name: string }[] {
  return parseRubric(text).criteria.map((criterion) => ({ id: criterion.id, name: criterion.label }));
}

const CRITERION_LINE = /^##[ \t]+Criterion\b/;
const CATEGORY_LINE = /^Categor(?:y|ies):[ \t]*(.*?)\r?$/i;
const CEILING_LINE = /^Ceiling:[ \t]*(.*?)\r?$/i;

/**
 * Removes the metadata lines (`Categories:`, `Ceiling:`) that directly follow a `## Criterion:` heading (in either
 * order), keyed by the heading's line; one anywhere else is a problem (it would otherwise reach the judge as rubric
 * text). Line numbers stay those of the file the author wrote.
 */
function takeMetadataLines(source: string, problems: string[]) {
  const lines = source.split("\n");
  const kept: string[] = [];
  const origins: number[] = [];
  const categoriesAt = new Map<number, string[]>();
  const ceilingAt = new Map<number, RubricCeiling>();
  let heading: number | null = null;
  lines.forEach((line, index) => {
    const category = CATEGORY_LINE.exec(line);
    const ceiling = CEILING_LINE.exec(line);
    if (!category && !ceiling) {
      heading = CRITERION_LINE.test(line) ? index + 1 : null;
      kept.push(line);
      origins.push(index + 1);
      return;
    }
    const name = category ? "a Categories" : "a Ceiling";
    if (heading === null) {
      problems.push(`line ${index + 1}: ${name} line must come directly below its "## Criterion:" heading`);
      return;
    }
    if (category) {
      try {
        categoriesAt.set(
          heading,
          categoryKeys(category[1]!.trim() === "" ? [] : category[1]!.split(","), `line ${index + 1}`),
        );
      } catch (error) {
        problems.push((error as Error).message);
      }
      return;
    }
    const value = ceiling![1]!.trim();
    if ((RUBRIC_CEILINGS as readonly string[]).includes(value)) ceilingAt.set(heading, value as RubricCeiling);
    else
      problems.push(
        `line ${index + 1}: unknown ceiling "${value}"; the only ceiling is ${RUBRIC_CEILINGS.join(", ")} (the eval's REFERENCE_FIX.md, scored)`,
      );
  });
  return { text: kept.join("\n"), originLine: (line: number) => origins[line - 1] ?? line, categoriesAt, ceilingAt };
}

function nextSection(headings: { node: Heading }[], position: number): Heading | undefined {
  return headings.slice(position + 1).find((entry) => entry.node.depth <= 2)?.node;
}

function sectionText(text: string, heading: Heading, next: Heading | undefined): string {
  const start = heading.position?.end.offset ?? 0;
  const end = next?.position?.start.offset ?? text.length;
  return text.slice(start, end).trim();
}
