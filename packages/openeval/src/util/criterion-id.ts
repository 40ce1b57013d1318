// What a criterion id may look like: judge.md headings, `export const criteria`, judge output and gates
// all check against this one pattern. Here, not in load/, so a code-judge worker can check ids without loading the
// benchmark schemas.
export const CRITERION_ID = /^[a-z][a-z0-9_]*$/;
