import { describe, expect, it } from 'vitest';
import { checkHandled, checkNo5xx, checkRefused, checkSucceeded, isRefusal } from '../../harness/checks.ts';
import { judge, severityIn } from '../../harness/judge.ts';
import type { Exchange } from '../../harness/transport.ts';

const envelope = { messages: [], responseInfo: { responseCode: 'OK', responseMessage: '' } };

/** A hand-made exchange: the checks are pure, so no server is needed to know what they must find. */
function exchange(method: string, path: string, status: number, body: unknown, contentType = 'application/json'): Exchange {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  let json: unknown;
  let jsonError: string | undefined;
  try {
    json = JSON.parse(text);
  } catch (err) {
    jsonError = (err as Error).message;
  }
  return {
    seq: 1,
    request: { method, url: `http://cms.test/rest${path}`, headers: { accept: 'application/json' } },
    response: { status, headers: { 'content-type': contentType }, text, truncated: false, ...(jsonError ? { jsonError } : { json }) },
    durationMs: 1,
  };
}

const counts = { ...envelope, folders: 1, pages: 2, templates: 0, images: 0, files: 3 };

describe('judge', () => {
  it('finds nothing in a correct answer', () => {
    expect(judge(exchange('GET', '/folder/count/1', 200, counts)).findings).toEqual([]);
  });

  it('knows the operation from the method, the path and the body form', () => {
    expect(judge(exchange('GET', '/folder/count/1', 200, counts)).operation?.id).toBe('folder.count');
    expect(judge(exchange('POST', '/folder/delete/1', 201, envelope)).operation?.id).toBe('folder.delete');
  });

  it.each([
    ['a wrong success status', exchange('POST', '/folder/delete/1', 200, envelope), 'ENV-03', 'status'],
    ['a body that is not JSON', exchange('GET', '/folder/count/1', 200, '<html>'), 'ENV-01', 'json'],
    ['a text/plain content type', exchange('GET', '/folder/count/1', 200, counts, 'text/plain'), 'ENV-04', 'contentType'],
    ['a counter of the wrong type', exchange('GET', '/folder/count/1', 200, { ...counts, files: '3' }), 'OP-folder.count', 'schema'],
    ['a server error', exchange('GET', '/folder/count/1', 500, envelope), 'ENV-08', 'no5xx'],
    ['a refusal without the envelope', exchange('GET', '/folder/count/1', 404, { error: 'not found' }), 'ENV-01', 'schema'],
    [
      'a refusal labelled text/plain',
      exchange('GET', '/folder/count/1', 404, { ...envelope, responseInfo: { responseCode: 'NOTFOUND' } }, 'text/plain'),
      'ENV-04',
      'contentType',
    ],
  ])('finds %s', (_what, ex, requirement, check) => {
    const found = judge(ex).findings.filter((f) => f.severity === 'error');
    expect(found.map((f) => [f.requirement, f.check])).toEqual(expect.arrayContaining([[requirement, check]]));
    expect(found[0]!.exchange).toBe(ex);
  });

  it('names the operation and the JSON path in a schema finding', () => {
    const [f] = judge(exchange('GET', '/folder/count/1', 200, { ...counts, files: '3' })).findings;
    expect(f!.message).toMatch(/^folder\.count: \/files must be number/);
  });

  it('judges a refusal by the envelope only, and counts it as validated', () => {
    const refused = judge(exchange('GET', '/folder/count/1', 404, { ...envelope, responseInfo: { responseCode: 'NOTFOUND' } }));
    expect([refused.findings, refused.validated]).toEqual([[], true]);
  });

  it('reports unknown members as warnings, and as errors under strict', () => {
    const ex = exchange('GET', '/folder/count/1', 200, { ...counts, forms: 0 });
    expect(judge(ex).findings.map((f) => f.severity)).toEqual(['warning']);
    expect(judge(ex, { strict: true }).findings.map((f) => f.severity)).toEqual(['error']);
  });

  it('fails conventions only in their own tests and the operation test, everything else everywhere', () => {
    const [status] = judge(exchange('POST', '/folder/delete/1', 200, envelope)).findings;
    expect(severityIn(status!, 'ENV-03', 'folder.delete')).toBe('error');
    expect(severityIn(status!, 'OP-folder.delete', 'folder.delete')).toBe('error');
    expect(severityIn(status!, 'DEL-05', undefined)).toBe('warning');
    const [shape] = judge(exchange('GET', '/folder/count/1', 200, { ...counts, files: '3' })).findings;
    expect(severityIn(shape!, 'FLD-06', undefined)).toBe('error');
    const [server] = judge(exchange('GET', '/folder/count/1', 500, envelope)).findings;
    expect(severityIn(server!, 'NEG-03', undefined)).toBe('error');
  });

  it('keeps a note a note in every test, a convention its own test included', () => {
    const note = { requirement: 'ENV-01', check: 'schema', severity: 'note' as const, message: 'a value the contract does not show' };
    for (const requirement of ['ENV-01', 'OP-folder.load', 'FLD-06']) expect(severityIn(note, requirement, 'folder.load')).toBe('note');
  });
});

describe('checkSucceeded', () => {
  it('finds a refusal of a valid request', () => {
    const ex = exchange('GET', '/folder/count/1', 200, { ...envelope, responseInfo: { responseCode: 'NOTFOUND' } });
    expect(checkSucceeded(ex, 'OP-folder.count').map((f) => [f.requirement, f.check])).toEqual([['OP-folder.count', 'refused']]);
    expect(checkSucceeded(exchange('GET', '/folder/count/1', 200, counts), 'OP-folder.count')).toEqual([]);
  });

  it('turns a transport error into a finding of the test, not an exception', () => {
    const ex: Exchange = {
      seq: 2,
      request: { method: 'GET', url: 'http://cms.test/rest/folder/load/1', headers: {} },
      error: { code: 'TIMEOUT', message: 'no answer in 100 ms' },
      durationMs: 100,
    };
    expect(checkSucceeded(ex, 'OP-folder.load').map((f) => [f.check, f.message])).toEqual([
      ['transport', 'the request timed out: no answer in 100 ms'],
    ]);
  });
});

describe('refusals', () => {
  const refusedByStatus = exchange('POST', '/folder/delete/7', 409, { ...envelope, responseInfo: { responseCode: 'FAILURE' } });
  const refusedByCode = exchange('POST', '/folder/delete/7', 200, { ...envelope, responseInfo: { responseCode: 'FAILURE' } });
  const accepted = exchange('POST', '/folder/delete/7', 201, envelope);

  it('counts a status >= 400 and a non-OK code at 200 alike as refusals', () => {
    expect([isRefusal(refusedByStatus), isRefusal(refusedByCode), isRefusal(accepted)]).toEqual([true, true, false]);
  });

  it('accepts both refusal styles and finds an accepted request', () => {
    expect(checkRefused(refusedByStatus, 'DEL-01', 'an inherited folder cannot be deleted in a channel')).toEqual([]);
    expect(checkRefused(refusedByCode, 'DEL-01', 'an inherited folder cannot be deleted in a channel')).toEqual([]);
    const found = checkRefused(accepted, 'DEL-01', 'an inherited folder cannot be deleted in a channel');
    expect(found.map((f) => [f.requirement, f.check])).toEqual([['DEL-01', 'refusal']]);
    expect(found[0]!.message).toMatch(/^an inherited folder cannot be deleted in a channel, but the request succeeded \(status 201/);
  });

  it('never accepts a 5xx as a refusal', () => {
    const found = checkRefused(exchange('POST', '/folder/create', 500, envelope), 'NEG-01', 'malformed JSON');
    expect(found.map((f) => f.check)).toEqual(['no5xx']);
    expect(checkNo5xx(exchange('GET', '/folder/load/x', 503, 'oops'), 'NEG-03').map((f) => f.check)).toEqual(['no5xx']);
  });

  it('lets robustness checks accept a refusal or a success but not a non-JSON answer', () => {
    expect(checkHandled(refusedByStatus, 'NEG-02')).toEqual([]);
    expect(checkHandled(accepted, 'NEG-02')).toEqual([]);
    expect(checkHandled(exchange('GET', '/file?pageSize=abc', 400, 'Bad Request', 'text/plain'), 'NEG-02').map((f) => f.check)).toEqual([
      'json',
    ]);
  });
});
