/**
 * What a search term and a creator/editor pattern of the filtering suite match in a record: the
 * suite predicts each filter's answer from the unfiltered records with these.
 */
import { text } from '../../harness/records.ts';
import type { User } from '../../schemas/types.ts';

/**
 * A search term (lower-case) matches a record: its id equals the term, or its name, description or an extra text contains
 * it. An absent member reads as empty (harness/records.ts: contract 2.1 does not show which members a record carries).
 */
export function termMatches(
  r: { id?: number; name?: string; description?: string },
  term: string,
  extra: readonly (string | undefined)[] = [],
): boolean {
  return String(r.id) === term || [text(r, 'name'), text(r, 'description'), ...extra].some((s) => s?.toLowerCase().includes(term) ?? false);
}

/** The texts, lower-cased, a creator/editor pattern may be matched against: login, names, full name, e-mail. */
export function userTexts(u: User | undefined): string[] {
  return u
    ? [u.login, u.firstName, u.lastName, `${u.firstName ?? ''} ${u.lastName ?? ''}`, u.email]
        .filter((s): s is string => !!s)
        .map((s) => s.toLowerCase())
    : [];
}
