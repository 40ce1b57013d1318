// Built-in scorers (`openeval/scorers`): versioned, deterministic helpers a judge.ts calls. Each result
// is itself a score ({ value, reason, measurements }) that can go straight into `scores`.
export { SCORERS_VERSION } from "../../util/versions.ts";
export { ScorerError, type ScorerErrorCode } from "./errors.ts";
export {
  referenceFix,
  DEFAULT_REFERENCE,
  DEFAULT_WEIGHTS,
  type ReferenceFixOptions,
  type ReferenceFixScore,
  type ReferenceFixMeasurements,
  type ReferenceFixFile,
} from "./reference-fix.ts";
export { charSimilarity, MAX_COMPARED_CHARS, type CharSimilarity } from "./char-similarity.ts";
export { parseUnifiedDiff, DiffSyntaxError, type FilePatch } from "./unified-diff.ts";
export { exactMatch, type ExactMatchOptions, type ExactMatchScore } from "./exact-match.ts";
export { jsonShape, type JsonShapeIssue, type JsonShapeScore, type SafeParseSchema } from "./json-shape.ts";
export { toolWasCalled, type ToolWasCalledOptions, type ToolWasCalledScore } from "./tool-was-called.ts";
export { filesChanged, type FilesChangedOptions, type FilesChangedScore } from "./files-changed.ts";
export {
  toolSequence,
  type ToolSequenceOptions,
  type ToolSequenceScore,
  type ToolSequenceStep,
} from "./tool-sequence.ts";
export type { InputPattern } from "./partial-match.ts";
export { stepCount, type StepCountOptions, type StepCountScore } from "./step-count.ts";
export { noToolErrors, type NoToolErrorsOptions, type NoToolErrorsScore } from "./no-tool-errors.ts";
