import { describe, expect, it } from 'vitest';
import { validateBody, validateResponse, walkAnnotations } from '../schemas/validate.ts';

const envelope = { messages: [], responseInfo: { responseCode: 'OK', responseMessage: 'loaded' } };
const folder = {
  id: 12,
  globalId: 'A547.6d75467a-4b1c-11e5-a8d2-00270e06eab6',
  name: 'News',
  cdate: 1700000000,
  edate: 1700000100,
  type: 'folder',
  motherId: 3,
};
const loadBody = { ...envelope, folder, stagingStatus: { packageName: 'p', included: false } };
const ok = { status: 200, headers: { 'Content-Type': 'application/json; charset=utf-8' } };

function errors(findings: ReturnType<typeof validateResponse>) {
  return findings.filter((f) => f.severity === 'error');
}

describe('validateResponse', () => {
  it('passes a correct folder load answer', () => {
    expect(validateResponse('folder.load', { ...ok, body: loadBody })).toEqual([]);
  });

  it('reports a non-201 status of a successful POST under ENV-03', () => {
    const found = validateResponse('folder.create', { ...ok, body: loadBody });
    expect(found.map((f) => [f.requirement, f.keyword])).toEqual([['ENV-03', 'status']]);
  });

  it('reports a content type other than JSON under ENV-04', () => {
    const found = validateResponse('folder.load', { status: 200, headers: { 'content-type': 'text/html' }, body: loadBody });
    expect(found.map((f) => f.requirement)).toEqual(['ENV-04']);
  });

  it('reports a success answered with a non-OK code under ENV-02', () => {
    const body = { ...loadBody, responseInfo: { responseCode: 'FAILURE' } };
    expect(errors(validateResponse('folder.load', { ...ok, body })).map((f) => f.requirement)).toEqual(['ENV-02']);
  });

  it('reports a missing envelope member under ENV-01', () => {
    const { messages: _dropped, ...body } = loadBody;
    const found = errors(validateResponse('folder.load', { ...ok, body }));
    expect(found.map((f) => [f.requirement, f.keyword])).toEqual([['ENV-01', 'required']]);
  });

  it('reports a fraction where an integer id is required under ENV-07, located in the declaring schema', () => {
    const found = errors(validateResponse('folder.load', { ...ok, body: { ...loadBody, folder: { ...folder, id: 12.5 } } }));
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      requirement: 'ENV-07',
      instancePath: '/folder/id',
      schemaPath: 'records/Item.json#/properties/id/type',
    });
  });

  it('reports a missing required member of a nested record under the operation', () => {
    const { cdate: _dropped, ...noCdate } = folder;
    const found = errors(validateResponse('folder.load', { ...ok, body: { ...loadBody, folder: noCdate } }));
    expect(found.map((f) => [f.requirement, f.keyword, f.instancePath])).toEqual([['OP-folder.load', 'required', '/folder']]);
  });

  it('makes unknown members warnings by default and errors under strict', () => {
    const body = { ...loadBody, folder: { ...folder, '@class': 'com.example.Folder' }, inBackground: false };
    const lax = validateResponse('folder.load', { ...ok, body });
    expect(errors(lax)).toEqual([]);
    expect(lax.map((f) => f.instancePath).sort()).toEqual(['/folder/@class', '/inBackground']);
    const strict = validateResponse('folder.load', { ...ok, body }, { strict: true });
    expect(errors(strict).map((f) => f.keyword)).toEqual(['unknownMember', 'unknownMember']);
  });

  it('notes, never warns or fails, on a value of an open enumeration the contract does not show, also under strict', () => {
    // Contract 2.2: item type "Values seen: ... The complete enumeration: not shown": another value is allowed.
    const body = { ...loadBody, folder: { ...folder, type: 'contenttag' } };
    for (const options of [{}, { strict: true }]) {
      const found = validateResponse('folder.load', { ...ok, body }, options);
      expect(found.map((f) => [f.severity, f.keyword, f.instancePath])).toEqual([['note', 'unseenValue', '/folder/type']]);
    }
  });

  it('fails a value outside a closed enumeration', () => {
    const body = { ...loadBody, folder: { ...folder, tags: { t1: { id: 1, name: 't1', type: 'PAGETAG' } } } };
    const found = errors(validateResponse('folder.load', { ...ok, body }));
    expect(found.map((f) => [f.keyword, f.instancePath])).toEqual([['enum', '/folder/tags/t1/type']]);
  });
});

describe('walkAnnotations', () => {
  it('treats map members as values of the map, not as unknown members', () => {
    expect(walkAnnotations('records/Folder', { cdate: 1, edate: 1, nameI18n: { de: 'Nachrichten', en: 'News' } })).toEqual([]);
  });

  it('reports no member of a record whose further fields the contract says it does not show, and still walks its neighbours', () => {
    // Contract 2.4: "All further fields of the image record: not shown"; 4.3: "The full member list of
    // the syncable-objects response after images: not shown."
    const body = {
      ...envelope,
      images: [{ iconCls: 'i', sizeX: 1, sizeY: 2, id: 7, fileType: 'image/png' }],
      later: 1,
      files: [{ extra: 1 }],
    };
    const notes = walkAnnotations('responses/ReferencedSyncableObjectsListResponse', body);
    expect(notes.map((n) => n.instancePath)).toEqual(['/files/0/extra']);
  });

  it('walks into arrays of records', () => {
    const notes = walkAnnotations('responses/LegacyFolderListResponse', { ...envelope, folders: [{ ...folder, extra: 1 }] });
    expect(notes.map((n) => n.instancePath)).toEqual(['/folders/0/extra']);
  });
});

describe('validateBody', () => {
  it('accepts the deployed shapes the contract allows: deleted {at: 0} without by, a root folder without motherId', () => {
    const { motherId: _none, ...root } = folder;
    const found = validateBody(
      'responses/FolderLoadResponse',
      { ...loadBody, folder: { ...root, type: 'node', deleted: { at: 0 } } },
      'OP-folder.load',
    );
    expect(found).toEqual([]);
  });
});
