// The viewer front end's entry into this package (`openeval/viewer-api`, declared in package.json): the API's types
// and the pure helpers that run the same in the browser as on the server. Nothing here may import a Node module
// (type-only imports are erased), so the bundle stays browser-safe.
export type * from "./api-types.ts";
export type * from "./compare-types.ts";
export type * from "./queue-types.ts";
export type * from "./run-launch-types.ts";
export { EVAL_RUN_SORTS } from "./api-types.ts";
export { CHANGE_SORTS } from "./compare-types.ts";
export { locateInTranscript, pageOf, pageOffsetFor, queryEvalRuns } from "./query.ts";
export { CHANGE_ORDER, CHANGE_STATUSES, formatComparison, signed } from "./compare-table.ts";
export { queryChanges, summarizeComparison } from "./compare-pages.ts";
export { STATIC_CALLBACK, staticDataFile, staticKeys, staticRawFile } from "./static-files.ts";
export { describeState } from "../util/words.ts";
export { describeComparison, describeMissing, type Missing } from "./not-found.ts";
