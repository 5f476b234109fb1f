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
 * A value as JSON without null members. A replacer makes JSON.stringify much slower (BENCHMARKS.md), so the
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
export function deepFreeze(value: unknown): void {
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

/** Whether a value is an object with a kept text. */
function isKept(value: unknown): value is object {
  return typeof value === 'object' && value !== null && texts.has(value);
}

/** Whether a member is a non-empty array of records with kept texts. */
function keptArray(value: unknown): value is object[] {
  return Array.isArray(value) && value.length > 0 && value.every(isKept);
}

/**
 * Whether a member is a non-empty map (an object that is neither kept nor an array) of values with kept
 * texts: the `perms` map of GET /file and the folder listings gives every item one permission list,
 * and written anew it cost a listing page a large share of its time (BENCHMARKS.md).
 */
function keptMap(value: unknown): value is Record<string, object> {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || texts.has(value)) return false;
  let some = false;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || !isKept((value as Record<string, unknown>)[key])) return false;
    some = true;
  }
  return some;
}

/** A key as JSON: ids (the keys of a perms map) need no escaping. */
const keyJson = (key: string): string => (/^\d+$/.test(key) ? `"${key}"` : JSON.stringify(key));

/**
 * Large bodies are written into buffers used again once their answer is sent. A new buffer of 100 KB
 * is new memory from the C allocator, which hands freed memory of that size back to the system: every
 * page of it faults again on first write, which made copying a large listing page several times slower
 * and cost a large share of the server's time per page.
 */
const POOLED_MIN = 64 * 1024;
const POOLED_MAX = 8 * 1024 * 1024;
/** Free buffers kept per size: a few answers in flight at once, and at most 16 MB of one size. */
const keptPerSize = (size: number): number => Math.min(8, Math.floor((16 * 1024 * 1024) / size));
/** Free buffers by size (powers of two). */
const freeBodies = new Map<number, Buffer[]>();
/** Each pooled body handed out, with the whole buffer it is a view of. */
const pooled = new WeakMap<Buffer, Buffer>();

/** A buffer for a body of `size` bytes: a view of a pooled one when the size is worth it. */
function bodyBuffer(size: number): Buffer {
  if (size < POOLED_MIN || size > POOLED_MAX) return Buffer.allocUnsafe(size);
  const capacity = 2 ** Math.ceil(Math.log2(size));
  const whole = freeBodies.get(capacity)?.pop() ?? Buffer.allocUnsafeSlow(capacity);
  const body = whole.subarray(0, size);
  pooled.set(body, whole);
  return body;
}

/**
 * Takes back a body bodyJson wrote, for another answer: call it only once the answer holding it has
 * been written in full (the response's 'finish'). Anything else is ignored, and so is a second call.
 */
export function releaseBody(body: string | Buffer): void {
  if (typeof body === 'string') return;
  const whole = pooled.get(body);
  if (!whole) return;
  pooled.delete(body);
  let free = freeBodies.get(whole.length);
  if (!free) freeBodies.set(whole.length, (free = []));
  if (free.length < keptPerSize(whole.length)) free.push(whole);
}

/** Kept texts as strings, made on first use for values of kept maps (a permission list: a few dozen bytes). */
const strings = new WeakMap<object, string>();

/** The kept text of a value, as a string. */
function keptString(value: object): string {
  let text = strings.get(value);
  if (text === undefined) strings.set(value, (text = texts.get(value)!.toString()));
  return text;
}

/**
 * A response body as JSON without null members: exactly JSON.stringify(body, withoutNulls), as text,
 * or as its UTF-8 bytes when a member is an array of kept records or a map of kept values (written
 * from their kept texts; give them back with releaseBody once sent).
 */
export function bodyJson(body: Record<string, unknown>): string | Buffer {
  const members = Object.keys(body);
  const kinds = members.map((k) => (keptArray(body[k]) ? 'array' : keptMap(body[k]) ? 'map' : undefined));
  if (!kinds.some(Boolean)) return json(body)!;
  // Text between kept records is gathered into one string: one copy into the body for each run of it.
  const parts: (string | Buffer)[] = [];
  let text = '{';
  // Before every member but the first written (a member whose value JSON leaves out is not written).
  let head = '';
  members.forEach((k, m) => {
    const value = body[k];
    if (kinds[m] === 'array') {
      text += `${head}${keyJson(k)}:[`;
      head = ',';
      (value as object[]).forEach((v, i) => {
        parts.push(i ? `${text},` : text, texts.get(v)!);
        text = '';
      });
      text = ']';
      return;
    }
    if (kinds[m] === 'map') {
      text += `${head}${keyJson(k)}:{`;
      head = ',';
      let first = true;
      // Read with for...in: a map keyed by ids holds them as indexed elements, which Object.entries and
      // JSON.stringify walk several times slower. keptMap checked that every key is an own one; the order
      // is JSON.stringify's (indices ascending, then the rest).
      const map = value as Record<string, object>;
      for (const key in map) {
        text += `${first ? '' : ','}${keyJson(key)}:${keptString(map[key]!)}`;
        first = false;
      }
      text += '}';
      return;
    }
    const member = value === null ? undefined : json(value);
    if (member === undefined) return;
    text += `${head}${keyJson(k)}:${member}`;
    head = ',';
  });
  parts.push(`${text}}`);
  let size = 0;
  for (const part of parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
  const out = bodyBuffer(size);
  let at = 0;
  for (const part of parts) at += typeof part === 'string' ? out.write(part, at) : (out.set(part, at), part.length);
  return out;
}
