/**
 * How the deployed server converts JSON scalars (reference notes, "What the server accepts": Jackson's
 * default scalar coercion). The reference server reads request bodies with it (server/coerce.ts) and
 * the bad-input generator asks it which wrong-type values a server may accept converted
 * (generators/invalid.ts), so the two never disagree.
 */

/** The scalar types a request schema member can have. */
export type ScalarType = 'string' | 'integer' | 'number' | 'boolean';

/** What a scalar reads as: a converted value, `absent` (Jackson's null), or a reason it cannot be converted. */
export type ScalarReading = { value: string | number | boolean } | { absent: true } | { refused: string };

/** A JSON value's kind, for refusal messages. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value)}`;
  return `the ${typeof value} ${String(value)}`;
}

/**
 * Jackson reads an empty string, and the text "null", as null for a non-string scalar (its default
 * coercion of empty and textual-null input); a string member keeps them as text.
 */
function textualNull(text: string): boolean {
  const t = text.trim();
  return t === '' || t === 'null';
}

/**
 * Converts one scalar to a member type as Jackson's defaults do (reference notes: "A JSON number is
 * accepted for a string member (`"motherId": 110` reads as `"110"`), an integer-valued string for an
 * integer member (`"folderId": "7"`), and `"true"`/`"false"` for a boolean. A value that cannot be
 * converted (`"folderId": "x"`, an object for a string) is refused with INVALIDDATA."). Beyond those:
 * a boolean reads as its text for a string member and an integer as `!= 0` for a boolean member (both
 * Jackson defaults); a fractional number for an integer member is refused (Jackson would truncate it,
 * silently changing an id); a number's text is JavaScript's (`1.50` reads as "1.5": JSON.parse keeps no
 * source text, where Jackson keeps the token as written).
 */
export function readScalar(type: ScalarType, value: unknown): ScalarReading {
  if (value === null || value === undefined) return { absent: true };
  if (typeof value === 'object') return { refused: `must be ${type === 'integer' ? 'an integer' : `a ${type}`}, not ${kindOf(value)}` };
  const refused = (what: string): ScalarReading => ({ refused: `${kindOf(value)} is not ${what}` });
  switch (type) {
    case 'string':
      return { value: typeof value === 'string' ? value : String(value) };
    case 'integer':
      if (typeof value === 'number') return Number.isSafeInteger(value) ? { value } : refused('an integer');
      if (typeof value === 'string') {
        if (textualNull(value)) return { absent: true };
        const n = Number(value.trim());
        return /^[+-]?\d+$/.test(value.trim()) && Number.isSafeInteger(n) ? { value: n } : refused('an integer');
      }
      return refused('an integer');
    case 'number':
      if (typeof value === 'number') return Number.isFinite(value) ? { value } : refused('a number');
      if (typeof value === 'string') {
        if (textualNull(value)) return { absent: true };
        const n = Number(value.trim());
        return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value.trim()) && Number.isFinite(n) ? { value: n } : refused('a number');
      }
      return refused('a number');
    case 'boolean':
      if (typeof value === 'boolean') return { value };
      if (typeof value === 'number') return Number.isInteger(value) ? { value: value !== 0 } : refused('true or false');
      if (typeof value === 'string') {
        const t = value.trim();
        if (textualNull(t)) return { absent: true };
        // Jackson recognises "only "true"/"True"/"TRUE" or "false"/"False"/"FALSE"".
        if (t === 'true' || t === 'True' || t === 'TRUE') return { value: true };
        if (t === 'false' || t === 'False' || t === 'FALSE') return { value: false };
      }
      return refused('true or false');
  }
}
