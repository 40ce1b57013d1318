// The integrity check's findings as it collects them: one per kind and subject (refusals each), at most
// MAX_FINDINGS_PER_KIND of a kind, in the vocabulary's order.
import { INTEGRITY_FINDING_KINDS, type IntegrityFindingKind } from "../../load/index.ts";
import type { IntegrityCitation, IntegrityFinding } from "../../records/index.ts";

/** Findings past this many of one kind are not listed: one is enough to fail, and a loop of them would bloat records. */
export const MAX_FINDINGS_PER_KIND = 100;

/** Collects findings once per kind and subject, in the vocabulary's order. */
export class Findings {
  private readonly found: IntegrityFinding[] = [];

  add(
    kind: IntegrityFindingKind,
    subject: string,
    detail: string,
    /** A function when finding the citation costs a search: called only for a finding that is kept. */
    citation: IntegrityCitation | (() => IntegrityCitation),
    options: { repeat?: boolean } = {},
  ): void {
    const ofKind = this.found.filter((finding) => finding.kind === kind);
    if (ofKind.length >= MAX_FINDINGS_PER_KIND) return;
    if (!options.repeat && ofKind.some((finding) => finding.subject === subject)) return;
    this.found.push({ kind, subject, detail, citation: typeof citation === "function" ? citation() : citation });
  }

  list(): IntegrityFinding[] {
    const order = (kind: IntegrityFindingKind) => INTEGRITY_FINDING_KINDS.indexOf(kind);
    return [...this.found].sort((a, b) => order(a.kind) - order(b.kind));
  }
}
