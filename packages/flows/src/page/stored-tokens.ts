/**
 * The token-like strings of a stored value: the value itself, or the string leaves of its JSON, of 16 or more
 * characters without spaces (a session token, a JWT), never a word or a flag.
 */
export function tokensIn(value: string): string[] {
  const fit = (v: string) => v.length >= 16 && !/\s/.test(v);
  try {
    const parsed: unknown = JSON.parse(value);
    const leaves: string[] = [];
    const walk = (v: unknown, depth: number): void => {
      if (typeof v === "string") leaves.push(v);
      else if (v && typeof v === "object" && depth < 4) for (const x of Object.values(v)) walk(x, depth + 1);
    };
    walk(parsed, 0);
    return leaves.filter(fit);
  } catch {
    // Not JSON: the value as it is.
  }
  return fit(value) ? [value] : [];
}
