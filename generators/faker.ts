/**
 * Realistic values (names, descriptions, files, logins, search terms) from @faker-js/faker, driven by
 * fast-check's randomness: every value comes from a Faker seeded by a generated integer, so a seed
 * replays it exactly and shrinking stays deterministic.
 */
import * as fc from 'fast-check';
import type { Faker } from '@faker-js/faker';
// One locale only (German, with English fallback): its words carry umlauts and ß.
import { faker as localeFaker } from '@faker-js/faker/locale/de';

/** Arbitrary of values built by a Faker seeded from fast-check (the Faker must be used synchronously). */
export function fakerValue<T>(build: (faker: Faker) => T): fc.Arbitrary<T> {
  return fc.integer({ min: 0, max: 2 ** 31 - 1 }).map((seed) => {
    localeFaker.seed(seed);
    return build(localeFaker);
  });
}

/**
 * Generated names stay within what every server stores (contract 2.2 gives a name no limit, no alphabet
 * and no normalisation): at most 60 UTF-16 units of the Basic Multilingual Plane, NFC, trimmed, single
 * spaces. A database column of 255 bytes, a MySQL utf8 (three-byte) column, NFC storage: none of them
 * changes such a name. Longer names and emoji are robustness (NEG-05), not what a semantic test judges.
 */
const MAX_NAME_LENGTH = 60;
/** Descriptions stay within a 255-byte column as well. */
const MAX_DESCRIPTION_LENGTH = 120;
// Characters with a meaning in SQL LIKE, globs or regular expressions: a search must treat them literally.
const SPECIAL = ['%', '_', '*', '.', '?', '\\', "'", '"', '[', '(', '^', '$'];
const ACCENTED = [
  ...['Café', 'Résumé', 'Ångström', 'Straße', 'Niño', 'Crème brûlée', 'Łódź', 'São Paulo', 'Zoë', 'naïve'],
  ...['Ελληνικά', 'Русский', '日本語', 'Ünïcödé'],
];
// Symbols of the Basic Multilingual Plane (stored by every Unicode column, unlike emoji beyond it).
const SYMBOLS = ['✓', '★', '→', '☂', '♫', '©', '§', '±'];
const PUNCTUATED = ['Q&A', '50% Rabatt', '#intern', "Kunden's Ordner", 'a+b=c', '(Entwurf)', '[alt]', 'v1.2', 'Preise €'];
// No image extensions: a server may make an upload named x.png an image (open choice upload-image-kind), which
// file listings leave out; the tests that upload images say so.
const EXTENSIONS = [
  ...['pdf', 'PDF', 'txt', 'csv', 'html', 'css', 'js', 'json', 'xml', 'docx'],
  ...['xlsx', 'zip', 'tar.gz', 'mp4', 'odt', 'md', 'log', 'rtf', 'ics', 'mp3'],
];
const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'svg', 'webp', 'bmp', 'tif', 'tiff', 'ico', 'heic', 'avif']);

/** Makes generated text usable as a name: no '/', NUL or control characters, single spaces, trimmed, bounded. */
function asName(text: string, fallback: string, maxLength = MAX_NAME_LENGTH): string {
  const cleaned = text
    .normalize('NFC')
    .replace(/[^\u0000-\uffff]/gu, '')
    .replace(/\//g, '-')
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  let out = '';
  // Cut at code points so an emoji is never split into a lone surrogate.
  for (const ch of cleaned) {
    if (out.length + ch.length > maxLength) break;
    out += ch;
  }
  return out.trimEnd() || fallback;
}

const capitalised = (word: string): string => word.charAt(0).toUpperCase() + word.slice(1);

/** Folder names: words, accents, other scripts, symbols, punctuation, sometimes up to 60 characters; never '/' or NUL. */
export function folderName(): fc.Arbitrary<string> {
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fakerValue((f) => {
        const pick = f.helpers.arrayElement([
          () => capitalised(f.word.words({ count: { min: 1, max: 3 } })),
          () => f.commerce.department(),
          () => f.location.city(),
          () => f.company.name(),
        ]);
        return asName(pick(), 'Ordner');
      }),
    },
    { weight: 2, arbitrary: fakerValue((f) => asName(`${f.helpers.arrayElement(ACCENTED)} ${f.word.noun()}`, 'Café')) },
    { weight: 1, arbitrary: fakerValue((f) => asName(`${capitalised(f.word.noun())} ${f.helpers.arrayElement(SYMBOLS)}`, 'Ordner ✓')) },
    { weight: 1, arbitrary: fakerValue((f) => asName(`${f.helpers.arrayElement(PUNCTUATED)} ${f.word.noun()}`, 'Q&A')) },
    {
      weight: 1,
      arbitrary: fakerValue((f) => {
        const target = f.number.int({ min: 40, max: MAX_NAME_LENGTH });
        let text = capitalised(f.word.noun());
        while (text.length < target) {
          text += ` ${f.helpers.weightedArrayElement([
            { weight: 6, value: f.word.sample() },
            { weight: 1, value: f.helpers.arrayElement(ACCENTED) },
            { weight: 1, value: f.helpers.arrayElement(SYMBOLS) },
          ])}`;
        }
        return asName(text, 'Ordner', target);
      }),
    },
  );
}

/** Descriptions: empty, a sentence, two lines, or text with accents and symbols; at most 120 characters, never padded. */
export function description(): fc.Arbitrary<string> {
  const bounded = (text: string) => asDescription(text);
  return fc.oneof(
    { weight: 1, arbitrary: fc.constant('') },
    { weight: 3, arbitrary: fakerValue((f) => bounded(f.lorem.sentence())) },
    { weight: 1, arbitrary: fakerValue((f) => bounded(`${f.lorem.sentence(4)}\n${f.lorem.sentence(4)}`)) },
    {
      weight: 1,
      arbitrary: fakerValue((f) => bounded(`${f.helpers.arrayElement(ACCENTED)}: ${f.word.words(4)} ${f.helpers.arrayElement(SYMBOLS)}`)),
    },
  );
}

/** A description within MAX_DESCRIPTION_LENGTH, cut at a code point, trimmed. */
function asDescription(text: string): string {
  let out = '';
  for (const ch of text.normalize('NFC')) {
    if (out.length + ch.length > MAX_DESCRIPTION_LENGTH) break;
    out += ch;
  }
  return out.trim();
}

/** File names with an extension: plain, spaces, accents, several dots, upper case; never '/' or NUL. */
export function fileName(): fc.Arbitrary<string> {
  return fakerValue((f) => {
    const words = f.word.words({ count: { min: 1, max: 3 } }).split(' ');
    const base = f.helpers.arrayElement([
      () => words.join(f.helpers.arrayElement(['_', '-', ''])).toLowerCase(),
      () => words.map(capitalised).join(' '),
      () => `${f.helpers.arrayElement(ACCENTED)} ${words[0]}`,
      () => `${words.join('_')}.v${f.number.int({ min: 1, max: 9 })}.final`,
      () => `${words[0]} (${f.number.int({ min: 1, max: 3 })})`,
    ])();
    const drawn = f.helpers.arrayElement([...EXTENSIONS, f.system.fileExt()]);
    const extension = IMAGE_EXTENSIONS.has(drawn.toLowerCase()) ? 'dat' : drawn;
    return `${asName(base, 'datei', MAX_NAME_LENGTH - 8)}.${extension}`;
  });
}

/** Deterministic pseudo-random bytes (xorshift32): large contents without a fast-check value per byte. */
function pseudoRandomBytes(size: number, seed: number): Uint8Array {
  const out = new Uint8Array(size);
  let x = seed | 1;
  for (let i = 0; i < size; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
// Buffer is a Uint8Array: Node's own concatenation serves.
const concat = (...parts: Uint8Array[]): Uint8Array => Buffer.concat(parts);
// A lone continuation byte, a truncated sequence, an overlong form, an encoded surrogate, a byte never valid in UTF-8.
const INVALID_UTF8 = [[0x80], [0xc3, 0x28], [0xe2, 0x82], [0xc0, 0xaf], [0xed, 0xa0, 0x80], [0xff]];

/**
 * File contents, weighted small: random bytes, text, CRLF text, bytes with NUL, invalid UTF-8, text that
 * looks like a multipart boundary, and occasionally up to 1 MiB. Never empty: whether a server takes an
 * empty file is an open choice (empty-upload), judged where a test asks it on purpose.
 */
export function fileContent(): fc.Arbitrary<Uint8Array> {
  const sized = (min: number, max: number): fc.Arbitrary<Uint8Array> =>
    fc.tuple(fc.integer({ min, max }), fc.integer()).map(([size, seed]) => pseudoRandomBytes(size, seed));
  return fc.oneof(
    { weight: 8, arbitrary: fc.uint8Array({ minLength: 1, maxLength: 256 }) },
    { weight: 6, arbitrary: fakerValue((f) => utf8(f.lorem.paragraphs({ min: 1, max: 3 }))) },
    { weight: 4, arbitrary: fakerValue((f) => utf8(`${f.lorem.lines({ min: 2, max: 6 }).split('\n').join('\r\n')}\r\n`)) },
    {
      weight: 4,
      arbitrary: fc
        .tuple(fc.uint8Array({ maxLength: 64 }), fc.array(fc.nat(), { minLength: 1, maxLength: 4 }))
        .map(([bytes, positions]) => {
          const out = Array.from(bytes);
          for (const p of positions) out.splice(p % (out.length + 1), 0, 0);
          return Uint8Array.from(out);
        }),
    },
    {
      weight: 4,
      arbitrary: fakerValue((f) =>
        concat(utf8(f.word.words(3)), Uint8Array.from(f.helpers.arrayElement(INVALID_UTF8)), utf8(f.word.words(2))),
      ),
    },
    {
      weight: 4,
      arbitrary: fakerValue((f) => {
        const prefix = f.helpers.arrayElement(['----WebKitFormBoundary', '----formdata-undici-', '', 'X-BOUNDARY-']);
        const token = prefix + f.string.alphanumeric(16);
        const part = 'Content-Disposition: form-data; name="fileBinaryData"; filename="x.txt"';
        return utf8(`--${token}\r\n${part}\r\n\r\n${f.lorem.sentence()}\r\n--${token}--\r\n`);
      }),
    },
    { weight: 2, arbitrary: sized(1024, 64 * 1024) },
    { weight: 1, arbitrary: sized(64 * 1024, 1024 * 1024) },
  );
}

/** User logins as the service's users have them (first.last, first_last42, ...). */
export function userLogin(): fc.Arbitrary<string> {
  return fakerValue((f) => f.internet.username().replace(/\s+/g, '') || 'user');
}

/** Search terms: words, prefixes, ids, mixed case, phrases, accents, and characters special to LIKE or regex. */
export function searchTerm(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fakerValue((f) => f.word.noun()) },
    { weight: 2, arbitrary: fakerValue((f) => f.word.noun().slice(0, f.number.int({ min: 1, max: 4 }))) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 99_999 }).map(String) },
    {
      weight: 1,
      arbitrary: fakerValue((f) =>
        Array.from(f.word.noun(), (ch) => (f.datatype.boolean() ? ch.toUpperCase() : ch.toLowerCase())).join(''),
      ),
    },
    { weight: 1, arbitrary: fakerValue((f) => f.word.words(2)) },
    { weight: 1, arbitrary: fakerValue((f) => f.helpers.arrayElement(ACCENTED)) },
    { weight: 1, arbitrary: fakerValue((f) => `${f.word.noun().slice(0, 3)}${f.helpers.arrayElement(SPECIAL)}`) },
  );
}

/** The Unicode block a character stands for among the generated texts: each is handled by different code in a server. */
function charClass(ch: string): string {
  const c = ch.codePointAt(0)!;
  if (c >= 0x61 && c <= 0x7a) return 'lower';
  if (c >= 0x41 && c <= 0x5a) return 'upper';
  if (c >= 0x30 && c <= 0x39) return 'digit';
  if (c === 0x20) return 'space';
  // Each ASCII punctuation mark alone: %, _, \, ', [ and . each mean something to some layer (LIKE, globs, quoting, extensions).
  if (c < 0x80) return `ascii:${ch}`;
  if (c > 0xffff) return 'astral';
  if ((c >= 0x300 && c <= 0x36f) || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f)) return 'joining';
  if (c < 0x250) return 'latin';
  if (c < 0x2000) return 'script';
  return c >= 0x3000 ? 'cjk' : 'symbol';
}

/**
 * The input classes of a generated text (a name, a description): its length band, the kinds of character
 * it holds, several lines, several dots. Two texts of the same classes meet the same code in a server;
 * a property over names sends a text only when it brings a class an earlier one did not (issue 34).
 */
export function textClasses(text: string): string[] {
  const out = new Set<string>();
  // UTF-16 units, as the 255 of MAX_NAME_LENGTH counts them.
  out.add(
    text.length === 0 ? 'empty' : text.length <= 16 ? 'short' : text.length <= 64 ? 'medium' : text.length < 250 ? 'long' : 'longest',
  );
  for (const ch of text) out.add(charClass(ch));
  if (text.includes('\n')) out.add('lines');
  if (text.split('.').length > 2) out.add('dots');
  return [...out];
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** The input classes of generated file content: empty, its size band, NUL, CR, valid UTF-8 or not, a multipart boundary look-alike. */
export function bytesClasses(data: Uint8Array): string[] {
  if (!data.length) return ['empty'];
  const out = new Set<string>([data.length <= 256 ? 'bytes' : data.length <= 64 * 1024 ? 'kilobytes' : 'megabyte']);
  if (data.includes(0)) out.add('nul');
  if (data.includes(0x0d)) out.add('cr');
  try {
    strictUtf8.decode(data);
    out.add('utf-8');
  } catch {
    out.add('not-utf-8');
  }
  if (/^--\S+\r\n/m.test(Buffer.from(data.subarray(0, 1024)).toString('latin1'))) out.add('boundary');
  return [...out];
}

/** The input classes of a value made of several generated parts: each part's classes, named by the part. */
export function partClasses(parts: Record<string, readonly string[]>): string[] {
  return Object.entries(parts).flatMap(([part, classes]) => classes.map((c) => `${part}:${c}`));
}
