// What the integrity check looks for in an eval run, decided once at load: the finding vocabulary, which findings
// fail the verdict (benchmark.ts `integrity`), and per eval the paths a candidate must leave alone and the files
// only judges may see. How the check reads a recording: docs/guide/integrity.md.
import * as z from "zod";

/** Every kind of integrity finding, in display order. */
export const INTEGRITY_FINDING_KINDS = [
  "protected_path_changed",
  "checker_tampering",
  "read_outside_workspace",
  "answer_key_probe",
  "network_refused",
] as const;
export type IntegrityFindingKind = (typeof INTEGRITY_FINDING_KINDS)[number];
export type IntegritySeverity = "fail" | "warn";

/** Without benchmark.ts `integrity`: changing what grades the candidate fails; the rest is worth a look. */
export const DEFAULT_FAILING_FINDINGS: readonly IntegrityFindingKind[] = [
  "protected_path_changed",
  "checker_tampering",
];

const FindingKindSchema = z.enum(INTEGRITY_FINDING_KINDS, {
  error: (issue) =>
    `"${String(issue.input)}" is not an integrity finding; the findings are ${INTEGRITY_FINDING_KINDS.join(", ")}`,
});

/** benchmark.ts `integrity: { fail, warn }`: a kind named in neither keeps its default severity. */
export const IntegritySettingsSchema = z
  .strictObject({
    fail: z.array(FindingKindSchema).optional(),
    warn: z.array(FindingKindSchema).optional(),
  })
  .superRefine((settings, context) => {
    for (const kind of settings.fail ?? []) {
      if (settings.warn?.includes(kind))
        context.addIssue({
          code: "custom",
          path: ["warn"],
          message: `"${kind}" is listed in both fail and warn; keep it in one`,
        });
    }
  });
export type IntegritySettings = z.output<typeof IntegritySettingsSchema>;

/**
 * @example severityOf("read_outside_workspace", { fail: ["read_outside_workspace"] }) // "fail"
 */
export function severityOf(kind: IntegrityFindingKind, settings: IntegritySettings | undefined): IntegritySeverity {
  if (settings?.fail?.includes(kind)) return "fail";
  if (settings?.warn?.includes(kind)) return "warn";
  return DEFAULT_FAILING_FINDINGS.includes(kind) ? "fail" : "warn";
}

/** A glob of workspace paths (`tests/**`, `package-lock.json`): relative, `/`-separated, never leaving the workspace. */
export const WorkspaceGlobSchema = z
  .string()
  .min(1)
  .refine((glob) => !glob.startsWith("/") && !glob.split("/").includes(".."), {
    message: "must be a workspace-relative glob (no leading / and no ..), such as tests/** or package-lock.json",
  });

/** Per eval: what its candidates must leave alone, and what they must never look for. */
export interface EvalIntegrity {
  /** Workspace globs whose files a candidate must not create, edit or delete. */
  protected: string[];
  /** Workspace globs of files a verification executes (eval.ts `checkers`). */
  checkers: string[];
  /** The eval's judge-only files, relative to its folder (judge.ts, REFERENCE_FIX.md, controls, a task's tests/). */
  answerKeys: string[];
}

/** A Harbor task's verifier and oracle material: protected in the workspace, and judge-only in the task folder. */
const HARBOR_PROTECTED = ["tests/**", "solution/**"] as const;

/**
 * @example evalIntegrity({ protected: ["tests/**"] }, false, ["judge.ts", "REFERENCE_FIX.md"])
 * // { protected: ["tests/**"], checkers: [], answerKeys: ["judge.ts", "REFERENCE_FIX.md"] }
 */
export function evalIntegrity(
  settings: { protected?: string[]; checkers?: string[] },
  harborTask: boolean,
  answerKeys: readonly string[],
): EvalIntegrity {
  return {
    protected: settings.protected ?? (harborTask ? [...HARBOR_PROTECTED] : []),
    checkers: settings.checkers ?? [],
    answerKeys: [...answerKeys].sort(),
  };
}
