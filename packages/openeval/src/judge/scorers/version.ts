// The version of the built-in scorers' definitions. Bump it whenever a scorer's result for the same evidence can
// change (a new similarity measure, a different default), so recorded scores say which definition produced them.
export const SCORERS_VERSION = "1.0.0";
