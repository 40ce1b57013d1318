// The viewer stage: `openeval view` (a JSON API over a run's store and recordings, plus the bundled front end in
// packages/viewer, on 127.0.0.1) and `openeval export` (a static, scrubbed copy that opens from file://).
export { serveViewer, DEFAULT_VIEWER_PORT, type ServeViewerOptions, type ViewerServer } from "./serve-viewer.ts";
export { exportRun, type ExportRunOptions, type ExportResult } from "./export-run.ts";
export {
  exportAtif,
  type ExportAtifOptions,
  type ExportAtifResult,
  type ExportedTrajectory,
} from "./export-atif.ts";
export type * from "./api-types.ts";
export { compareRuns, type CompareRunsOptions } from "./compare-runs.ts";
export { formatComparison } from "./compare-table.ts";
export { CompareError, ExportError, RunLaunchError } from "./errors.ts";
export type * from "./run-launch-types.ts";
export type * from "./compare-types.ts";
export type * from "./queue-types.ts";
