/**
 * Pure relations of the usage suite: which objects a tag map refers to, and how many ids one usage
 * query asks about. The usage data is the target's fixture, so these are metamorphic: they relate
 * answers to each other, never to known content.
 */
import type { Tag } from '../../schemas/types.ts';

/**
 * Objects a tag map refers to through its properties: page, file and image ids, and apart the folder ids, since folders are no
 * linked objects (contract 4.3: "Linked objects are pages, files and images").
 */
export function tagReferences(tags: Readonly<Record<string, Tag>> | undefined): {
  pages: number[];
  files: number[];
  images: number[];
  folders: number[];
} {
  const out = { pages: new Set<number>(), files: new Set<number>(), images: new Set<number>(), folders: new Set<number>() };
  for (const tag of Object.values(tags ?? {})) {
    for (const p of Object.values(tag.properties ?? {})) {
      if (typeof p.pageId === 'number' && p.pageId > 0) out.pages.add(p.pageId);
      if (typeof p.fileId === 'number' && p.fileId > 0) out.files.add(p.fileId);
      if (typeof p.imageId === 'number' && p.imageId > 0) out.images.add(p.imageId);
      if (typeof p.folderId === 'number' && p.folderId > 0) out.folders.add(p.folderId);
    }
  }
  return { pages: [...out.pages], files: [...out.files], images: [...out.images], folders: [...out.folders] };
}

/** Splits ids into chunks, so a query with many repeated `id` parameters stays a reasonable URL. */
export function chunks<T>(values: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += size) out.push(values.slice(i, i + size));
  return out;
}
