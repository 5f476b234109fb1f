/**
 * Response bodies as JSON, without null members (the deployed implementation leaves them out,
 * reference notes), and records whose JSON is kept beside them. A large page spends more time in
 * JSON.stringify than anywhere else, so records a listing answers again and again (handlers/render.ts
 * keptFileRecord) are written once, as UTF-8 bytes, and a body holding them is put together from
 * those bytes: no page-sized string is built and encoded again for every answer.
 */

/** Drops members whose value is null. */
function withoutNulls(_key: string, value: unknown): unknown {
  return value === null ? undefined : value;
}

/**
 * A value as JSON without null members. A replacer makes JSON.stringify about twice as slow, so the
 * plain form is written first and the replacer runs only when a member is null (`:null` outside a
 * string; inside one it merely costs the second pass). Undefined for what JSON leaves out.
 */
function json(value: unknown): string | undefined {
  const text = JSON.stringify(value) as string | undefined;
  return text !== undefined && text.includes(':null') ? (JSON.stringify(value, withoutNulls) as string | undefined) : text;
}

/** Records frozen with their JSON as UTF-8 bytes. */
const texts = new WeakMap<object, Buffer>();

/** Freezes an object and everything in it. */
function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const member of Object.values(value)) deepFreeze(member);
}

/**
 * Freezes a record (deeply) and keeps its JSON text, for a record answered unchanged by many requests:
 * frozen, because the text must stay what the record says.
 */
export function keepJson<T extends object>(record: T): T {
  deepFreeze(record);
  texts.set(record, Buffer.from(json(record)!));
  return record;
}

/** Whether a member is a non-empty array of records with kept texts. */
function keptArray(value: unknown): value is object[] {
  return Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === 'object' && v !== null && texts.has(v));
}

const COMMA = Buffer.from(',');
const CLOSE_ARRAY = Buffer.from(']');
const CLOSE_OBJECT = Buffer.from('}');

/**
 * A response body as JSON without null members: exactly JSON.stringify(body, withoutNulls), as text,
 * or as its UTF-8 bytes when a member is an array of kept records (written from their kept bytes).
 */
export function bodyJson(body: Record<string, unknown>): string | Buffer {
  const members = Object.keys(body);
  if (!members.some((k) => keptArray(body[k]))) return json(body)!;
  const parts: Buffer[] = [];
  let head = '{';
  for (const k of members) {
    const value = body[k];
    if (keptArray(value)) {
      parts.push(Buffer.from(`${head}${JSON.stringify(k)}:[`));
      value.forEach((v, i) => {
        if (i) parts.push(COMMA);
        parts.push(texts.get(v)!);
      });
      parts.push(CLOSE_ARRAY);
      head = ',';
      continue;
    }
    const text = value === null ? undefined : json(value);
    if (text === undefined) continue;
    parts.push(Buffer.from(`${head}${JSON.stringify(k)}:${text}`));
    head = ',';
  }
  parts.push(CLOSE_OBJECT);
  return Buffer.concat(parts);
}
