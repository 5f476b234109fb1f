/**
 * "What the server accepts" (reference notes) at the handler level: JSON bodies read with Jackson's
 * default scalar coercion, absent primitive query parameters as their zero value, folder delete
 * options in a body ignored. Each rule from both sides: accepted and converted, refused naming the member.
 */
import { describe, expect, it } from 'vitest';
import { setTags } from '../../server/state.ts';
import { call, freshState, ids, named, names, refused, type Body } from './helpers.ts';

describe('JSON bodies: convertible scalars are accepted as the converted value', () => {
  it("reads a number for a string member as its decimal text (the vendor client's motherId)", async () => {
    // Reference notes: "A JSON number is accepted for a string member (`"motherId": 110` reads as `"110"`)".
    const s = freshState();
    const mother = ids(s).sandboxParentFolderId;
    const folder = (await call(s, 'folder.create', { body: { motherId: mother, name: 5, description: 2.5 } })).folder as Body;
    const loaded = (await call(s, 'folder.load', { path: { id: folder.id } })).folder as Body;
    expect([loaded.motherId, loaded.name, loaded.description]).toEqual([mother, '5', '2.5']);
  });

  it('reads an integer-valued string for an integer member and true/false text for a boolean member', async () => {
    // Reference notes: "an integer-valued string for an integer member (`"folderId": "7"`), and `"true"`/`"false"` for a boolean".
    const s = freshState();
    const mother = String(ids(s).sandboxParentFolderId);
    const inChannel = (await call(s, 'folder.create', { body: { motherId: mother, name: 'Shop only', nodeId: '2' } })).folder as Body;
    expect(inChannel.nodeId).toBe(2);
    await call(s, 'folder.create', { body: { motherId: mother, name: 'Twice' } });
    const r = await refused(s, 'folder.create', { body: { motherId: mother, name: 'Twice', failOnDuplicate: 'true' } });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', 'name']);
    const renamed = (await call(s, 'folder.create', { body: { motherId: mother, name: 'Twice', failOnDuplicate: 'false' } }))
      .folder as Body;
    expect(renamed.name).toBe('Twice1');
  });

  it('reads an integer id given as text in the body of a move', async () => {
    const s = freshState();
    const file = named(s, 'file', 'terms.txt');
    const target = named(s, 'folder', 'Downloads');
    await call(s, 'file.move', { path: { id: file.id }, body: { folderId: String(target.id) } });
    expect(((await call(s, 'file.load', { path: { id: file.id } })).file as Body).folderId).toBe(target.id);
  });

  it('reads null as an absent member', async () => {
    const s = freshState();
    const folder = (
      await call(s, 'folder.create', {
        body: { motherId: String(ids(s).sandboxParentFolderId), name: 'Nulls', description: null, nodeId: null, publishDir: null },
      })
    ).folder as Body;
    expect([folder.description, folder.nodeId]).toEqual(['', ids(s).masterNodeId]);
  });
});

describe('JSON bodies: what cannot be converted is refused naming the member, changing nothing', () => {
  it.each([
    ['a string that is no integer', { folderId: 'x' }, 'folderId'],
    ['a fractional number for an integer', { folderId: 110.5 }, 'folderId'],
    ['a boolean for an integer', { folderId: true }, 'folderId'],
    ['an object for an integer', { folderId: { id: 110 } }, 'folderId'],
    ['an array for an integer', { folderId: [110] }, 'folderId'],
    ['text other than true or false for a boolean', { folderId: 110, allLanguages: 'yes' }, 'allLanguages'],
  ])('file.move refuses %s', async (_what, body, property) => {
    // NEG-04: "a body field whose value cannot be converted to the field's type (`folderId: "x"`, `name: {}`) is refused and changes nothing."
    const s = freshState();
    const file = named(s, 'file', 'terms.txt');
    const before = file.parentSet;
    const r = await refused(s, 'file.move', { path: { id: file.id }, body });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', property]);
    expect(r.message).toContain(property);
    expect(file.parentSet).toBe(before);
  });

  it.each([
    ['an object for a string', { name: {} }, 'name'],
    ['an array for a string', { name: ['x'] }, 'name'],
    ['an object for the motherId string', { name: 'x', motherId: { id: 110 } }, 'motherId'],
    ['a number for a map of strings', { name: 'x', nameI18n: 5 }, 'nameI18n'],
    ['an array for a map value', { name: 'x', nameI18n: { de: ['x'] } }, 'nameI18n.de'],
  ])('folder.create refuses %s', async (_what, body, property) => {
    const s = freshState();
    const before = s.objects.size;
    const r = await refused(s, 'folder.create', { body: { motherId: String(ids(s).sandboxParentFolderId), ...body } });
    expect([r.code, r.property]).toEqual(['INVALIDDATA', property]);
    expect(r.message).toContain(property);
    expect(s.objects.size).toBe(before);
  });
});

describe('absent query parameters the contract marks required', () => {
  it('localizationinfo without recursive counts as recursive=false (the vendor client sends nodeId only)', async () => {
    // Contract 4.2: "`recursive` (boolean, required)"; reference notes: "The vendor client calls `localizationinfo` with `nodeId` only".
    const s = freshState();
    const id = named(s, 'folder', 'Multichannel').id;
    const without = await call(s, 'folder.localizationinfo', { path: { id }, query: { nodeId: 2 } });
    expect(without).toEqual(await call(s, 'folder.localizationinfo', { path: { id }, query: { nodeId: 2, recursive: false } }));
  });

  it('createSimple without folderId looks for folder 0 and is refused as not found, creating nothing', async () => {
    // Reference notes: "`createSimple` without `folderId` looks for folder 0, which does not exist, and is refused as not found."
    const s = freshState();
    const before = s.objects.size;
    const r = await refused(s, 'file.createSimple.raw', {
      query: { qqfile: 'a.txt' },
      rawBody: { contentType: 'text/plain', data: Buffer.from('x') },
    });
    expect([r.code, r.property]).toEqual(['NOTFOUND', 'folderId']);
    expect(s.objects.size).toBe(before);
    const made = await call(s, 'file.createSimple.raw', {
      query: { qqfile: 'a.txt', folderId: ids(s).sandboxParentFolderId },
      rawBody: { contentType: 'text/plain', data: Buffer.from('x') },
    });
    expect((made.file as Body).name).toBe('a.txt');
  });
});

describe('folder delete options in a JSON body', () => {
  it('are ignored: nodeId is read from the query only', async () => {
    // Reference notes: "The vendor client sends folder delete options in a JSON body; the server reads `nodeId` from the query only".
    const s = freshState();
    const folder = named(s, 'folder', 'Inherited folder');
    expect((await refused(s, 'folder.delete', { path: { id: folder.id }, query: { nodeId: 2 } })).code).toBe('FAILURE');
    await call(s, 'folder.delete', { path: { id: folder.id }, body: { nodeId: 2 } });
    expect(folder.deleted).toBeDefined();
  });
});

describe('usage/file and the given files', () => {
  it('lists a given file that uses another given file', async () => {
    // Contract 4.3: "GET /file/usage/file: files using one of the given files."
    const s = freshState();
    const [terms, sheet] = [named(s, 'file', 'terms.txt'), named(s, 'file', 'product-sheet.pdf')];
    const alone = await call(s, 'file.usage.file', { query: { id: [terms.id] } });
    expect(names(alone.files)).toEqual(['product-sheet.pdf']);
    const both = await call(s, 'file.usage.file', { query: { id: [terms.id, sheet.id] } });
    expect([names(both.files), both.total]).toEqual([['product-sheet.pdf'], 1]);
  });

  it('does not list a file as a user of itself', async () => {
    // Reference notes: a file is "used" when "an object tag of another object ... refers to it".
    const s = freshState();
    const notes = named(s, 'file', 'notes.txt');
    setTags(s, notes, [
      {
        id: 99_001,
        name: 'object.self',
        constructId: 3,
        active: true,
        type: 'OBJECTTAG',
        properties: { file: { partId: 31, type: 'FILE', fileId: notes.id } },
      },
    ]);
    expect((await call(s, 'file.usage.file', { query: { id: [notes.id] } })).total).toBe(0);
  });
});
