/**
 * Credential hygiene of the reports. The transport records requests without credentials, but a
 * server may echo them (in an error message, a header, a redirect URL), so every string of a
 * report is scrubbed of the target's credential values in the forms an echo takes.
 */

/** What replaces a credential in every report. */
export const REDACTED = '<redacted>';

// Below this length a fragment (the token of "Bearer x") would scrub ordinary words; whole secrets are always scrubbed.
const MIN_FRAGMENT = 4;

/** The parts of a secret an echo may show alone: the token of "Scheme token", and user:password of Basic auth and its password. */
function fragments(secret: string): string[] {
  const token = /^[A-Za-z][\w-]*\s+(\S.*)$/.exec(secret)?.[1];
  if (!token) return [];
  const parts = [token];
  if (/^basic\s/i.test(secret) && /^[A-Za-z0-9+/]+={0,2}$/.test(token)) {
    const decoded = Buffer.from(token, 'base64').toString('utf8');
    parts.push(decoded, decoded.slice(decoded.indexOf(':') + 1));
  }
  return parts.filter((p) => p.length >= MIN_FRAGMENT);
}

/** The spellings under which a secret may come back: as is, URL-encoded, JSON-escaped, and its fragments likewise. */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const s of [secret, ...fragments(secret)]) {
      forms.add(s);
      forms.add(encodeURIComponent(s));
      forms.add(new URLSearchParams({ s }).toString().slice(2));
      forms.add(JSON.stringify(s).slice(1, -1));
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Replaces every form of the secrets in one text. */
export function redactText(text: string, forms: readonly string[]): string {
  let out = text;
  for (const f of forms) if (out.includes(f)) out = out.split(f).join(REDACTED);
  return out;
}

/** A deep copy of a JSON value with every form of the secrets replaced, in keys as in values. */
export function redact<T>(value: T, secrets: readonly string[]): T {
  const forms = secretForms(secrets);
  if (!forms.length) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, forms);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [redactText(k, forms), walk(x)]));
    return v;
  };
  return walk(value) as T;
}
