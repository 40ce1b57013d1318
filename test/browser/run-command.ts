// Runs an `openeval` command through cli/main.ts under the Bun running this file, for the browser tests
// (usage: bun test/browser/run-command.ts <view|export> [flags]).
import "../../packages/openeval/src/cli/main.ts";
