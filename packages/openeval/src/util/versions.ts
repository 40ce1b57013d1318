// Versions that enter fingerprints. Bump a harness version when a change alters what a candidate run records
// (candidate runtime) or how a recording is graded (judge protocol): reuse is exact-match only. Package versions are
// imported as JSON, so a bundle (the code-judge worker) holds them as constants and reads no file for them.
import opencodePackage from "opencode-ai/package.json" with { type: "json" };
import harnessPackage from "../../package.json" with { type: "json" };

/**
 * 2: metrics v2 (requests from recorded attempts, finish reasons, truncated steps, model-active time over steps with
 * output, unpriced cost unknown) and rejected steps' errors in the recording; judges see both, so version-1 recordings
 * are recorded again rather than mixed with these.
 */
export const CANDIDATE_RUNTIME_VERSION = 2;
/**
 * 2: workspace diffs summarize binary and too-large files with sizes and hashes.
 * 3: JudgeContext follows OpenEval 0.5's shapes (tool statuses succeeded/failed, synchronous events, diff(path) as
 * { initial, final }, metrics with byName/compactions/complete/sessions), and the rubric judge's evidence tool shows
 * tool calls in that vocabulary: a recorded judgment read the old shapes, so it is planned again.
 */
export const JUDGE_PROTOCOL_VERSION = 3;

/**
 * The definition of the built-in scorers (`openeval/scorers`). Bump it whenever a scorer's result for the same
 * evidence can change (a new similarity measure, a different default): judges that import them are regraded, and
 * recorded scores say which definition produced them.
 */
export const SCORERS_VERSION = "1.1.0"; // 1.1: referenceFix counts too-large files as touched, with no lines

/** This harness's own version (the `openeval` package). */
export const HARNESS_VERSION: string = harnessPackage.version;

/** The pinned OpenCode version, read from the installed `opencode-ai` package. */
export const OPENCODE_VERSION: string = opencodePackage.version;

/** The integrity check's rules (judge/integrity/): bumped when it finds differently, so gradings are made again. */
export const INTEGRITY_CHECK_VERSION = 1;

/** What a rubric judge is told of the reference-fix scorer's result, and how a ceiling caps: bumped when either changes. */
export const REFERENCE_FACTS_VERSION = 1;
