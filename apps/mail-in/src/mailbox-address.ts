/** `agent+acme@domain` is delivered to `agent@domain` (subaddressing, as most mail hosts do). */
export function mailboxAddressOf(address: string, domain: string): string | null {
  const at = address.lastIndexOf("@");
  if (at < 1) return null;
  const host = address
    .slice(at + 1)
    .toLowerCase()
    .replace(/\.$/, "");
  if (host !== domain) return null;
  const local = address.slice(0, at).toLowerCase().split("+")[0]!;
  return local ? `${local}@${domain}` : null;
}
