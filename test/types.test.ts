import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { schemasById } from '../schemas/index.ts';
import type { Folder, FolderCreateRequest, LegacyPageListResponse, Page, Tag } from '../schemas/types.ts';
import { TYPES_PATH, renderTypes } from '../scripts/gen-types.ts';

describe('schemas/types.ts', () => {
  it('is exactly what npm run gen:types generates from the schemas', () => {
    expect(readFileSync(TYPES_PATH, 'utf8')).toBe(renderTypes());
  });

  it('exports one interface per schema, named by its title', () => {
    const names = [...renderTypes().matchAll(/^export interface (\w+)/gm)].map((m) => m[1]);
    expect(names).toEqual([...schemasById.values()].map((s) => s.title));
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
