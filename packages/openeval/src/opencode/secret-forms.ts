// The forms one known secret can take in what a session leaves: as is, JSON-escaped, and the encodings an agent
// produces with one shell command (base64, base64url, hex, percent-encoding, reversed). Chains of encodings
// (reversed base64, base64 of hex, …) are not listed: they never end, and each form is scanned for in every line.

/**
 * Every form of `secret`, each at least as long as the secret (so the short-secret rule still holds).
 * @example encodedForms("sk-ant-12345678") // → ["sk-ant-12345678", "87654321-tna-ks", "c2stYW50LTEyMzQ1Njc4", …]
 */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const reversed = [...secret].reverse().join("");
  const hex = bytes.toString("hex");
  const percent = hex.replace(/../g, "%$&");
  const uri = encodeURIComponent(secret);
  const forms = [
    secret,
    jsonEscaped(secret),
    reversed,
    jsonEscaped(reversed),
    // Whole (with its padding) when it is encoded alone, else the part its neighbours cannot change.
    bytes.toString("base64"),
    bytes.toString("base64url"),
    ...base64Cores(bytes, "base64"),
    ...base64Cores(bytes, "base64url"),
    hex,
    hex.toUpperCase(),
    percent,
    percent.toUpperCase(),
    uri,
    uri.replaceAll("%20", "+"),
  ];
  return [...new Set(forms)];
}

/** As the secret appears inside a JSON string (event lines and exports are JSON). */
function jsonEscaped(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/**
 * The part of the secret's base64 that stays the same wherever it sits in a longer stream, for each of the three
 * byte offsets (mod 3) it can start at: `echo $KEY | base64` appends a newline, a file puts bytes before it. A
 * base64 character carries 6 bits; those that share bits with a neighbouring byte are left out.
 */
function base64Cores(bytes: Buffer, encoding: "base64" | "base64url"): string[] {
  return [0, 1, 2].map((offset) => {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(encoding);
    return encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
  });
}
