/**
 * Every form of a credential is scrubbed (issue 32): a token holding `+`, `/`, `=` and upper-case
 * letters, echoed by a server as a decoder, a PHP JSON writer or a case-folding path would give it back.
 */
import { describe, expect, it } from 'vitest';
import { REDACTED, redact } from '../../reports/redact.ts';

const token = 'SecretToken+123/XYZ=';

/** The spellings a server's echo may give the token. */
const echoes: Record<string, string> = {
  verbatim: token,
  'percent-encoded': encodeURIComponent(token),
  'form-encoded': new URLSearchParams({ t: token }).toString().slice(2),
  '`+` decoded to a space': token.replace(/\+/g, ' '),
  'JSON-escaped with \\/ (PHP)': JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/'),
  'JSON with \\u escapes': 'SecretToken\\u002b123\\u002FXYZ\\u003d',
  'lower-cased': token.toLowerCase(),
  'upper-cased': token.toUpperCase(),
  'in base64 (Basic)': Buffer.from(token).toString('base64'),
  'a lower-cased path segment': `/sandbox/n-${token.toLowerCase().replace(/[^a-z0-9]/g, '')}/`,
};

describe('credential forms', () => {
  it.each(Object.entries(echoes))('scrubs the token %s from every string, key and value', (_how, echo) => {
    const report = { message: `the server said: ${echo}.`, nested: [{ url: `http://h/x?sid=${echo}` }], [echo]: 1 };
    const text = JSON.stringify(redact(report, [token]));
    // Whatever survived of the token must not carry its letters and digits in a row.
    expect(text.toLowerCase()).not.toContain('secrettoken');
    expect(text).toContain(REDACTED);
  });

  it('leaves ordinary text alone', () => {
    expect(redact({ m: 'secret token 123' }, [token])).toEqual({ m: 'secret token 123' });
  });
});
