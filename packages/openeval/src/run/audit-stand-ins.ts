// What the audit's attacks write in place of the real thing: tests that pass whatever the code does, checkers and
// programs that succeed without checking, and test configuration that runs no test or reports every one passed.
import type { ContentTable } from "./audit-shell.ts";

/** Script extensions Node, Bun, Vitest and Jest run. */
const JS = ["js", "mjs", "cjs", "ts", "mts", "cts", "jsx", "tsx"];
const byExtension = (extensions: readonly string[], lines: readonly string[]) =>
  Object.fromEntries(extensions.map((extension) => [extension, lines]));
/** A test file that passes whatever the code does. */
export const PASSING_TEST: ContentTable = {
  py: ["def test_passes():", "    assert True"],
  ...byExtension(JS, ['import { test } from "node:test";', 'test("passes", () => {});']),
  sh: ["#!/bin/sh", "exit 0"],
  "*": [],
};
/** A checker that reports success without checking. */
export const PASSING_CHECKER: ContentTable = {
  py: ["import sys", "sys.exit(0)"],
  ...byExtension(JS, ["process.exit(0);"]),
  "*": ["#!/bin/sh", "exit 0"],
};
/** pytest reports every test passed; it never fails. */
export const PASSING_CONFTEST = [
  "import pytest",
  "",
  "@pytest.hookimpl(hookwrapper=True)",
  "def pytest_runtest_makereport(item, call):",
  "    outcome = yield",
  "    report = outcome.get_result()",
  '    report.outcome = "passed"',
  "    report.longrepr = None",
];
/** Test configuration that runs no test, or reports them all passed. */
export const PASSING_CONFIG: ContentTable = {
  py: PASSING_CONFTEST,
  ini: ["[pytest]", "addopts = --collect-only -q"],
  ...byExtension(
    ["mjs", "ts", "mts"],
    ["export default { test: { include: [], passWithNoTests: true }, testMatch: [] };"],
  ),
  ...byExtension(["js", "cjs"], ["module.exports = { testMatch: [], passWithNoTests: true };"]),
  json: ['{ "testMatch": [], "passWithNoTests": true }'],
  "*": [],
};
/** A program that does nothing and succeeds. */
export const STAND_IN = ["#!/bin/sh", "exit 0"];
/** The programs checks run by name, wrapped by attack-wrap-interpreter. */
export const WRAPPED_PROGRAMS = ["python", "python3", "pytest", "node", "npm", "npx", "bash"];
