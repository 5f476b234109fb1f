/**
 * The types the listing engine (listing.ts) shares with its plan of planted faults (planted/listing.ts), in a file of
 * their own so that the two import no circle; listing.ts exports them to its callers.
 */
import type { FolderObj, Obj, View } from '../state.ts';
import type { Wastebin } from './common.ts';

/** How to walk a folder: in which view, how deep, what to do with deleted objects. */
export interface Walk {
  view: View;
  recursive: boolean;
  wastebin: Wastebin;
  /** Whether to descend into a sub-folder (recursiveIds); the sub-folder itself is still listed. */
  descend?: (folder: FolderObj) => boolean;
  /** Deletions a planted fault overlooks (the object then counts as not deleted). */
  ignoreDeletion?: (obj: Obj, view: View) => boolean;
  /** A planted fault: exclusion and disinheritance do not hide inherited objects. */
  ignoreRestrictions?: boolean;
  /** A planted fault: a recursive walk goes this many levels down and no further. */
  maxDepth?: number;
}

/** Group F filters plus the search term, as given by a request. */
export interface ObjectFilter {
  createdbefore: number;
  createdsince: number;
  editedbefore: number;
  editedsince: number;
  creator?: string;
  editor?: string;
  creatorIds: number[];
  editorIds: number[];
  iscreator: boolean;
  iseditor: boolean;
  inherited?: boolean;
  /** Group L `search`: id equals, or name/description contains. */
  search?: string;
  /** Group P `q`: like search, over more fields per kind (GET /file: niceUrl, alternateUrls). */
  q?: string;
}

/** A sort key of an object; undefined sorts first. */
export type SortKey = (o: Obj) => SortValue;

/** A value a sort key gives. */
export type SortValue = string | number | boolean | undefined;
