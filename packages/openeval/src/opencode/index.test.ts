import { expect, test } from "vitest";
import * as opencode from "./index.ts";

test("the opencode module exposes exactly this runtime API", () => {
  expect(Object.keys(opencode).sort()).toEqual([
    "CONTROL_PROVIDER",
    "OpenCodeError",
    "RUN_MARKER",
    "archiveDatabase",
    "buildProviderConfig",
    "checkEndpoint",
    "createGitWorkspace",
    "describeEndpointProblem",
    "exportSessions",
    "findKnownSecrets",
    "findSecretsIn",
    "parseModelRef",
    "preflightTarget",
    "prepareIsolation",
    "providerEndpoint",
    "redactBytes",
    "redactSecrets",
    "resolveOpenCodeBinary",
    "runOpenCode",
    "seedConfigDir",
    "selectCredentials",
    "serveOpenCode",
    "snapshotDatabase",
  ]);
});
