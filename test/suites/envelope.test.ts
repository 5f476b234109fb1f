import { describe, expect, it } from 'vitest';
import { conventionBreaks, envelopeProblems, isIdMember, isJsonContentType } from '../../suites/envelope/conventions.ts';

const envelope = { messages: [], responseInfo: { responseCode: 'OK', responseMessage: '', property: '' } };

describe('envelope', () => {
  it('accepts the envelope with or without responseMessage and property, never without responseCode', () => {
    expect(envelopeProblems(envelope)).toEqual([]);
    expect(envelopeProblems({ messages: [{ type: 'INFO' }], responseInfo: { responseCode: 'NOTFOUND' } })).toEqual([]);
    // Contract 7: "Every response carries `responseInfo` with `responseCode`".
    expect(envelopeProblems({ messages: [], responseInfo: {} })).toEqual(['responseInfo has no responseCode']);
  });

  it('names a missing or mistyped member', () => {
    expect(envelopeProblems({ responseInfo: { responseCode: 'OK' } })).toEqual(['messages is missing, not an array']);
    expect(envelopeProblems({ messages: ['x'], responseInfo: { responseCode: 200 } })).toHaveLength(2);
    expect(envelopeProblems([])).toHaveLength(1);
  });

  it('takes application/json with parameters as the JSON content type', () => {
    expect(isJsonContentType('application/json; charset=utf-8')).toBe(true);
    expect(isJsonContentType('Application/JSON')).toBe(true);
    expect(isJsonContentType('text/plain; charset=utf-8')).toBe(false);
    expect(isJsonContentType('application/jsonp')).toBe(false);
    expect(isJsonContentType(undefined)).toBe(false);
  });
});

describe('id and timestamp conventions', () => {
  it('knows identifier members', () => {
    expect(['id', 'folderId', 'masterNodeId', 'languagesId'].every(isIdMember)).toBe(true);
    expect(['globalId', 'idle', 'ids', 'name'].some(isIdMember)).toBe(false);
  });

  it('accepts integer ids, string globalIds and integer timestamps at any depth', () => {
    const body = {
      ...envelope,
      folders: [
        { id: 1, globalId: 'A547.x', cdate: 1, edate: 2, languagesId: [1, 2], deleted: { at: 0 }, subfolders: [{ id: 2, motherId: 1 }] },
      ],
    };
    expect(conventionBreaks(body)).toEqual([]);
  });

  it('reports an id as a string, a fractional timestamp and a numeric globalId with their paths', () => {
    const body = { folders: [{ id: '1', cdate: 1.5, globalId: 7, tags: { t: { id: 3, properties: { p: { fileId: '4' } } } } }] };
    expect(conventionBreaks(body).map((b) => b.path)).toEqual([
      '$.folders[0].id',
      '$.folders[0].cdate',
      '$.folders[0].globalId',
      '$.folders[0].tags["t"].properties["p"].fileId',
    ]);
  });

  it('reads the keys of maps as keys, not members, and judges the copy ids of nodeIds as identifiers', () => {
    expect(conventionBreaks({ tags: { parentId: { id: 3, name: 'parentId' } }, nameI18n: { sourceId: 'x' } })).toEqual([]);
    expect(conventionBreaks({ nodeIds: { '41': 2, '42': '3' } }).map((b) => b.path)).toEqual(['$.nodeIds["42"]']);
  });

  it('leaves null values and the members whose type is not shown alone', () => {
    expect(conventionBreaks({ motherId: null, startPageId: { id: 'x' }, file: { fileSize: 3, channelId: { id: 'x' } } })).toEqual([]);
    expect(conventionBreaks({ messages: [{ id: 'm1', timestamp: '2024' }], properties: { p: { options: [{ id: 'a' }] } } })).toEqual([]);
    // A record that shows no kind may be a file, whose channelId is "object in the shapes; its type: not shown".
    expect(conventionBreaks({ file: { channelId: { id: 0 } } })).toEqual([]);
    expect(conventionBreaks({ folder: { type: 'folder', channelId: '2' } })).toHaveLength(1);
    expect(conventionBreaks({ page: { pdate: 0, channelId: '2' } })).toHaveLength(1);
  });
});
