/**
 * Credential hygiene of the reports. The transport records requests without credentials, but a
 * server may echo them (in an error message, a header, a redirect URL), so every string of a
 * report is scrubbed of the target's credential values in the forms an echo takes.
 */

/** What replaces a credential in every report. */
export const REDACTED = '<redacted>';

// Below this length a fragment (the token of "Bearer x") would scrub ordinary words; whole secrets are always scrubbed.
// A secret's letters and digits alone are scrubbed only from this length: shorter runs occur in ordinary text.
const MIN_FRAGMENT = 4;
const MIN_ALNUM = 8;

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

/** Every character but letters and digits as a JSON \u escape, in lower- or upper-case hex (+ as \u002b). */
const unicodeEscaped = (s: string, upper: boolean): string =>
  s.replace(/[^A-Za-z0-9]/g, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });

/**
 * The spellings under which a secret may come back: as is; URL-encoded (with %20 or + for a space, and
 * a + read as a space, as a form decoder does); JSON-escaped (also with \/, PHP's default, and with
 * \u escapes); in base64 (Basic's encoding); its letters and digits alone; and its fragments likewise.
 * Case is matched loosely when replacing (redactText), for servers that fold an echo's case.
 */
export function secretForms(secrets: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret) continue;
    for (const s of [secret, ...fragments(secret)]) {
      for (const v of new Set([s, s.replace(/\+/g, ' '), s.replace(/ /g, '+')])) {
        forms.add(v);
        forms.add(encodeURIComponent(v));
        forms.add(new URLSearchParams({ v }).toString().slice(2));
        const json = JSON.stringify(v).slice(1, -1);
        forms.add(json);
        forms.add(json.replace(/\//g, '\\/'));
        forms.add(unicodeEscaped(v, false));
        forms.add(unicodeEscaped(v, true));
      }
      // A server that makes a name of it (a path segment, an id) may keep only its letters and digits.
      const alnum = s.replace(/[^A-Za-z0-9]/g, '');
      if (alnum.length >= MIN_ALNUM) forms.add(alnum);
      const base64 = Buffer.from(s, 'utf8').toString('base64');
      if (s.length >= MIN_FRAGMENT) forms.add(base64).add(base64.replace(/=+$/, ''));
    }
  }
  // Longest first, so a form that contains another is replaced whole.
  return [...forms].filter(Boolean).sort((a, b) => b.length - a.length);
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The one expression that finds every form, whatever its case (longest forms first, so a longer one wins). */
const formsPattern = new WeakMap<readonly string[], RegExp>();

/** Replaces every form of the secrets in one text, in any case: a server may echo a secret lower-cased. */
export function redactText(text: string, forms: readonly string[]): string {
  if (!forms.length) return text;
  let re = formsPattern.get(forms);
  if (!re) {
    re = new RegExp(forms.map(escapeRegExp).join('|'), 'gi');
    formsPattern.set(forms, re);
  }
  return text.replace(re, REDACTED);
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
