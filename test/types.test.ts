import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { SCHEMA_BASE, schemasById } from '../schemas/index.ts';
import { operations } from '../schemas/operations.ts';
import { listingOperations } from '../harness/rules/answer.ts';
import type {
  File,
  Folder,
  FolderCreateRequest,
  FolderListResponse,
  FolderLoadResponse,
  LegacyPageListResponse,
  ListRecordOf,
  Page,
  ResponseOf,
  ResponseTypeName,
  Tag,
  Template,
} from '../schemas/types.ts';
import { TYPES_PATH, renderTypes } from '../scripts/gen-types.ts';

describe('schemas/types.ts', () => {
  it('is exactly what npm run gen:types generates from the schemas', () => {
    expect(readFileSync(TYPES_PATH, 'utf8')).toBe(renderTypes());
  });

  it('exports one interface per schema, named by its title, then ResponseOf and ListRecordOf', () => {
    const names = [...renderTypes().matchAll(/^export interface (\w+)/gm)].map((m) => m[1]);
    expect(names).toEqual([...[...schemasById.values()].map((s) => s.title), 'ResponseOf', 'ListRecordOf']);
  });

  it('gives every paging listing of the catalogue the record type of its list member in ListRecordOf', () => {
    const block = /^export interface ListRecordOf \{\n([^}]*)\}/m.exec(renderTypes())?.[1] ?? '';
    const members = [...block.matchAll(/^ {2}'([^']+)': (\w+);$/gm)].map((m) => m[1]);
    expect(members).toEqual(listingOperations());
    expectTypeOf<ListRecordOf['folder.getFiles']>().toEqualTypeOf<File>();
    expectTypeOf<ListRecordOf['folder.getTemplates']>().toEqualTypeOf<Template>();
  });

  it('gives every operation of the catalogue its response type in ResponseOf', () => {
    const block = /^export interface ResponseOf \{\n([^}]*)\}/m.exec(renderTypes())?.[1] ?? '';
    const members = [...block.matchAll(/^ {2}'([^']+)': (\w+);$/gm)].map((m) => [m[1], m[2]]);
    expect(members).toEqual(operations.map((op) => [op.id, schemasById.get(SCHEMA_BASE + op.response.schema)?.title]));
    expectTypeOf<ResponseOf['folder.list']>().toEqualTypeOf<FolderListResponse>();
    expectTypeOf<ResponseOf['folder.create']>().toEqualTypeOf<FolderLoadResponse>();
    expectTypeOf<'FolderLoadResponse'>().toExtend<ResponseTypeName>();
  });

  it('is out of date when the operation catalogue changes and the file is not regenerated', () => {
    // A changed response schema of one operation, and one operation more: each makes the committed file drift.
    const changed = operations.map((op) =>
      op.id === 'folder.load' ? { ...op, response: { ...op.response, schema: 'responses/GenericResponse.json' } } : op,
    );
    const added = [...operations, { ...operations[0]!, id: 'folder.list.copy' }];
    for (const ops of [changed, added]) expect(readFileSync(TYPES_PATH, 'utf8')).not.toBe(renderTypes(ops));
  });

  // Checked by `tsc --noEmit`: required members, closed enumerations, composition and open records.
  it('maps required members, enumerations, allOf and open records', () => {
    expectTypeOf<Page['lockedSince']>().toEqualTypeOf<number>();
    expectTypeOf<Page['cdate']>().toEqualTypeOf<number>();
    expectTypeOf<Folder['motherId']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<Tag['type']>().toEqualTypeOf<'CONTENTTAG' | 'OBJECTTAG' | 'TEMPLATETAG' | undefined>();
    expectTypeOf<LegacyPageListResponse['pages']>().toEqualTypeOf<Page[] | undefined>();
    expectTypeOf<Folder['@class']>().toEqualTypeOf<unknown>();
    expectTypeOf<FolderCreateRequest>().not.toHaveProperty('unknownField');
    expect(renderTypes()).toContain('export interface Folder extends Item {');
  });
});
