// The public API of @openeval/control-model: control files and the scripted OpenAI-compatible server that plays them.
export { ControlFileSchema, type ControlFile } from "./schema.ts";
export { loadControlFile } from "./load-control-file.ts";
export { ControlFileError } from "./errors.ts";
export { startControlServer, type ControlRequestLog, type ControlServer } from "./server.ts";
