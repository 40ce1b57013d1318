// Short renderings of candidate text and path lists for score reasons: a report line must be able to hold them.
export function quote(text: string, max = 120): string {
  return JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);
}

export function listPaths(paths: readonly string[], max = 10): string {
  return paths.length <= max ? paths.join(", ") : `${paths.slice(0, max).join(", ")} and ${paths.length - max} more`;
}
