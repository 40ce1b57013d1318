// One value as one POSIX shell word: as it is when it holds nothing the shell would read, else single-quoted.

/** @example shellWord("a b") // "'a b'" */
export function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", `'\\''`)}'`;
}
