/**
 * The planted faults and variations of the upload handlers (server/handlers/uploads.ts), one plan per handler.
 *
 * A handler asks for its plan once (`const plan = planted.createSimpleRaw(ctx.faults)`) and consults it at named points
 * of the contract's code: a hook takes the value the contract computed there and returns the one the handler goes on
 * with, or (a hook that returns nothing) may throw where a fault does. With every switch off each hook gives back what
 * it was given and does nothing else, so the handler file reads as the contract, and this file, which only ever
 * differs from the contract, is left out of the mutation run (scripts/mutation).
 *
 * Two variations the upload handlers share with others are planted here too: channel-create-refused
 * (refuseInInheritedFolder, which createFolder's plan asks as well) and images-own-names (ownNames, which the file
 * handlers' plan asks as well).
 */
import { MEDIA_TYPES } from '../../../schemas/media-types.ts';
import type { FileCreateRequest } from '../../../schemas/types.ts';
import type { FileObj, FolderObj, State, TakenNames, View } from '../../state.ts';
import { Refusal, type FaultSet, type Handler, type HandlerContext, type OpRequest, type UploadPart } from '../../types.ts';
import { namesInFolder } from '../common.ts';

/** Leaves members of a body unread: they are absent, as if never sent. */
function unread<T extends object>(b: T, ...members: (keyof T)[]): void {
  for (const m of members) delete b[m];
}

/**
 * Refuses to create an object in a channel (an explicit view of a node that has a master) inside a folder the
 * channel only inherits, under the variation channel-create-refused: the channel localizes the folder first.
 */
export function refuseInInheritedFolder(state: State, faults: FaultSet, folder: FolderObj, view: View, explicit: View | undefined): void {
  if (!faults.has('channel-create-refused') || !explicit || state.nodes.get(view.nodeId)?.masterId === undefined) return;
  if (folder.nodeId !== view.nodeId)
    throw new Refusal(
      'FAILURE',
      `folder ${folder.id} is inherited in channel ${view.nodeId}: localize it to create objects in it`,
      'id',
      409,
    );
}

/**
 * The one kind whose names an object of `kind` must not take, where files and images have names of their
 * own (variation images-own-names of the open choice file-image-names); undefined where they share names.
 */
export function ownNames(kind: 'file' | 'image', faults: FaultSet): 'file' | 'image' | undefined {
  return faults.has('images-own-names') ? kind : undefined;
}

/** The largest upload under the variation upload-limit-2mib (contract 8: "upload size limits ... not shown"). */
const UPLOAD_LIMIT_2MIB = 2 * 1024 * 1024;

/** The hooks of every handler that stores uploaded content (the creates and the multipart save). */
export interface ContentPlan {
  /** Before the uploaded `data` is stored (the reference server takes every size up to its body limit). */
  storing(data: Buffer): void;
}

/** The content plan of every upload. */
function content(faults: FaultSet): ContentPlan {
  return {
    // Variations of the open choices empty-upload and upload-size-limit: content the reference server takes is refused.
    storing: (data) => {
      if (data.length === 0 && faults.has('empty-upload-refused'))
        throw new Refusal('INVALIDDATA', 'the file data is empty: an empty file is not stored', 'fileBinaryData');
      if (data.length > UPLOAD_LIMIT_2MIB && faults.has('upload-limit-2mib'))
        throw new Refusal('INVALIDDATA', `the file data exceeds ${UPLOAD_LIMIT_2MIB} bytes`, 'fileBinaryData', 413);
    },
  };
}

/** The hooks of the multipart forms: their data part and the ids their text parts give. */
export interface PartPlan extends ContentPlan {
  /** The data part the body gives (undefined: none of the known names). */
  dataPart(part: UploadPart | undefined): UploadPart | undefined;
  /** The pattern the text of an id must match. */
  idPattern(pattern: RegExp): RegExp;
}

/** The plan of the multipart forms. */
function parts(faults: FaultSet): PartPlan {
  return {
    ...content(faults),
    dataPart: (part) => {
      // Planted (multipart-part-filename-ignored): the data part's filename is not read; only a fileName part names the file.
      if (part && faults.has('multipart-part-filename-ignored')) {
        const unnamed = { ...part };
        delete unnamed.filename;
        return unnamed;
      }
      // Planted: a body without a data part is taken as an empty file.
      return (
        part ??
        (faults.has('multipart-no-data-part-empty-file')
          ? { fieldName: 'fileBinaryData', mimeType: 'application/octet-stream', data: Buffer.alloc(0) }
          : undefined)
      );
    },
    // Planted (node-id-one-digit): a pattern written for the one-digit node ids of a test system.
    idPattern: (pattern) => (faults.has('node-id-one-digit') ? /^\d$/ : pattern),
  };
}

/** The hooks every create shares: the name's extension, and the validation and storing of the new file (or the one replaced). */
export interface CreatePlan extends ContentPlan {
  /** The extension added to a name that has none, for a file of `mediaType`; the contract: `ext`, the media type's own. */
  extension(ext: string | undefined, mediaType: string): string | undefined;
  /** The kind of object an upload of `fileType` makes; the contract: `kind`, a file. */
  kind(kind: 'file' | 'image', fileType: string): 'file' | 'image';
  /** The names a new file of `kind` must not take in `folder` for `nodeId`; the contract: `taken`, those of files and images alike. */
  taken(taken: TakenNames, state: State, folder: FolderObj, nodeId: number, kind: 'file' | 'image'): TakenNames;
  /** Whether the upload replaces the file of its name; the contract: as `overwrite` asks. */
  replaces(overwrite: boolean | undefined): boolean | undefined;
  /** The folder's index of children the overwrite reads (undefined: the folder never held anything). */
  children<I>(index: I | undefined): I | undefined;
  /** The kinds whose objects an overwrite replaces; the contract: `kinds`, files. */
  replaceable(kinds: ('file' | 'image')[]): ('file' | 'image')[];
  /** Whether an object of the name is replaced; the contract: when it is of a kind replaced (`held`). */
  candidate(held: boolean): boolean;
  /** Whether a variant of the name is the one replaced; the contract: the one the upload's view sees (`seen`). */
  inView(seen: boolean): boolean;
  /** After the file replaced is looked for (`overwrite`, undefined: none), before a new file's name is settled. */
  placing(state: State, folder: FolderObj, view: View, explicit: View | undefined, overwrite: FileObj | undefined): void;
  /** Whether a taken name is refused (the contract: with failOnDuplicate). */
  duplicateRefused(failOnDuplicate: boolean | undefined): boolean | undefined;
  /** The name a new file of the taken name `wanted` is made unique from; the contract: `wanted` itself. */
  collisionName(wanted: string): string;
  /** The bytes stored of the uploaded `data`. */
  data(data: Buffer): Buffer;
  /** Whether the upload's description replaces the replaced file's; the contract: when the upload gives one (`given`). */
  describes(given: boolean): boolean;
}

/** The plan every create shares. */
function create(faults: FaultSet): CreatePlan {
  return {
    ...content(faults),
    // The variations of open choice extension-from-media-type keep the name as sent, or map application/octet-stream
    // to "bin" as mime-db does.
    extension: (ext, mediaType) => {
      if (faults.has('name-keeps-no-extension')) return undefined;
      if (faults.has('octet-stream-gets-bin') && mediaType.toLowerCase() === 'application/octet-stream') return 'bin';
      return ext;
    },
    // Variation (image-uploads-are-images): an image/* upload makes an image.
    kind: (kind, fileType) => (faults.has('image-uploads-are-images') && fileType.toLowerCase().startsWith('image/') ? 'image' : kind),
    // Variation (images-own-names): files and images have names of their own, so only the object's own kind holds names.
    taken: (taken, state, folder, nodeId, kind) => {
      // Planted (upload-duplicates-name): no name counts as taken, so a colliding upload makes a second file of the same name.
      if (faults.has('upload-duplicates-name')) return { has: () => false };
      const only = ownNames(kind, faults);
      return only ? namesInFolder(state, folder.channelSetId, [only], nodeId) : taken;
    },
    // Planted (overwrite-creates-copy): overwrite is not read, so a file of the same name gets a renamed sibling.
    // Planted (overwrite-by-default): an upload that does not say overwrite replaces the file of its name, as if it said true.
    replaces: (overwrite) => (overwrite || faults.has('overwrite-by-default')) && !faults.has('overwrite-creates-copy'),
    children: (index) => {
      // Planted: the folder's files are taken to exist, so an overwrite into a folder that never held anything fails (a 500).
      if (index === undefined && faults.has('overwrite-empty-folder-fails'))
        throw new TypeError("Cannot read properties of undefined (reading 'file')");
      return index;
    },
    // Where uploads make images (variation image-uploads-are-images), the file of that name may be an image.
    replaceable: (kinds) => (faults.has('image-uploads-are-images') ? [...kinds, 'image'] : kinds),
    // Planted: every object of the name is a candidate, not only the folder's files: a sub-folder of that name is "replaced".
    candidate: (held) => faults.has('overwrite-matches-any-kind') || held,
    // Planted: any node's variant of the name matches, not only the one the view of the upload sees.
    inView: (seen) => faults.has('overwrite-matches-across-views') || seen,
    placing: (state, folder, view, explicit, overwrite) => {
      // Planted (overwrite-drops-description): the file replaced loses its description, which an upload naming none leaves unset.
      if (overwrite && faults.has('overwrite-drops-description')) Reflect.deleteProperty(overwrite, 'description');
      // Variation (channel-create-refused): a new file of a channel only in a folder of the channel's own.
      if (!overwrite) refuseInInheritedFolder(state, faults, folder, view, explicit);
    },
    // Planted (overwrite-keeps-description): the file replaced keeps its description, whatever description the upload gives.
    describes: (given) => given && !faults.has('overwrite-keeps-description'),
    // Variation upload-collision-refused: a collision is refused, as with failOnDuplicate, instead of renamed.
    duplicateRefused: (failOnDuplicate) => failOnDuplicate || faults.has('upload-collision-refused'),
    // Planted (collision-name-lost): a colliding upload is named from a default name, keeping only the extension.
    collisionName: (wanted) => (faults.has('collision-name-lost') ? `upload${/\.[^.]*$/.exec(wanted)?.[0] ?? ''}` : wanted),
    // Planted: the last byte of the content is lost.
    data: (data) => (faults.has('upload-drops-last-byte') && data.length > 0 ? data.subarray(0, data.length - 1) : data),
  };
}

/** What a handler answers. */
type Answer = ReturnType<Handler<State>>;

/** The hooks of POST /file/create (multipart). */
export interface CreateMultipartPlan extends CreatePlan, PartPlan {
  /** The text parts as the handler reads them: a part a fault leaves unread is absent, one it reads otherwise is replaced. */
  fields(fields: Record<string, string>): Record<string, string>;
  /**
   * The answer when the data `part` is taken for another form of the create than the multipart one the request is;
   * the contract: none (undefined), the part is the file's content. `createFromUrl` answers the JSON form.
   */
  sniffed(part: UploadPart, state: State, req: OpRequest, ctx: HandlerContext, createFromUrl: Handler<State>): Answer | undefined;
  /** The name the file gets: the contract's `named`, or what a fault makes of the name as `given`. */
  name(named: string, given: string): string;
}

/** POST /file/create (createMultipart). */
export function createMultipart(faults: FaultSet): CreateMultipartPlan {
  return {
    ...create(faults),
    ...parts(faults),
    fields: (sent) => {
      const f = { ...sent };
      // Variation create-overwrite-part-ignored: the contract names no overwrite for this form, so the text part may go unread.
      if (faults.has('create-overwrite-part-ignored')) unread(f, 'overwrite');
      // Planted (multipart-overwrite-text-truthy): the part counts as true whatever it says, "false" too.
      else if (f.overwrite !== undefined && faults.has('multipart-overwrite-text-truthy')) f.overwrite = 'true';
      return f;
    },
    sniffed: (part, state, req, ctx, createFromUrl) => {
      // Planted: the form is chosen by sniffing the content (a JSON object with a sourceURL), not by Content-Type.
      if (!faults.has('multipart-json-data-as-url-create')) return undefined;
      let sniffed: unknown;
      try {
        sniffed = JSON.parse(part.data.toString('utf8'));
      } catch {
        sniffed = undefined;
      }
      if (typeof sniffed === 'object' && sniffed !== null && 'sourceURL' in sniffed)
        return createFromUrl(state, { ...req, operationId: 'file.create.json', body: sniffed }, ctx);
      return undefined;
    },
    // Planted: a name without an extension gets ".txt", whatever the part's media type.
    name: (named, given) => (faults.has('extensionless-name-gets-txt') && !given.includes('.') ? `${given}.txt` : named),
  };
}

/** The hooks both forms of POST /file/createSimple share. */
export interface CreateSimplePlan extends CreatePlan {
  /** The query's description read. */
  description(description: string | undefined): string | undefined;
  /** The overwrite parameter read (`overwrite`, its declared default false filled in). */
  overwrite(overwrite: boolean, req: OpRequest): boolean;
}

/** The plan both createSimple forms share. */
function createSimple(faults: FaultSet): CreateSimplePlan {
  return {
    ...create(faults),
    // Planted (createsimple-description-ignored): the query's description is not read.
    description: (description) => (faults.has('createsimple-description-ignored') ? undefined : description),
    // Planted (overwrite-absent-replaces): without overwrite the file of the same name is replaced, as if overwrite=true.
    overwrite: (overwrite, req) => (faults.has('overwrite-absent-replaces') && req.rawQuery.overwrite === undefined) || overwrite,
  };
}

/** The hooks of POST /file/createSimple (multipart). */
export interface CreateSimpleMultipartPlan extends CreateSimplePlan, PartPlan {
  /** The custom name of the data part read. */
  dataPartName(name: string | undefined): string | undefined;
  /** The qqfile parameter read. */
  qqfile(qqfile: string | undefined): string | undefined;
  /** The name the request gives the file, before an extension is added; the contract: `given`. */
  given(given: string, part: UploadPart): string;
  /** After the name is settled from `qqfile`, before the upload is validated. */
  naming(qqfile: string | undefined): void;
}

/** POST /file/createSimple (createSimpleMultipart). */
export function createSimpleMultipart(faults: FaultSet): CreateSimpleMultipartPlan {
  return {
    ...createSimple(faults),
    ...parts(faults),
    // Planted (createsimple-ignores-databodypart): databodypart is not read, so only the default part names are known.
    dataPartName: (name) => (faults.has('createsimple-ignores-databodypart') ? undefined : name),
    // Planted (createsimple-multipart-ignores-qqfile): the name is read as the multipart create reads it, without qqfile.
    qqfile: (qqfile) => (faults.has('createsimple-multipart-ignores-qqfile') ? undefined : qqfile),
    // Variation createsimple-part-filename-first: the part's own file name comes first, as a generic multipart parser gives it.
    given: (given, part) => (faults.has('createsimple-part-filename-first') ? part.filename || given : given),
    naming: (qqfile) => {
      // Planted: a qqfile without an extension is refused, as if it were no name.
      if (faults.has('createsimple-extensionless-qqfile-refused') && qqfile && qqfile.lastIndexOf('.') <= 0)
        throw new Refusal('INVALIDDATA', `${qqfile}: a name with an extension is required`);
    },
  };
}

/** How a name gets its extension from a media type (withExtension). */
type Named = (name: string, mediaType: string, plan: CreatePlan) => string;

/** The hooks of POST /file/createSimple (raw body). */
export interface CreateSimpleRawPlan extends CreateSimplePlan {
  /** The folder the file is created in; the contract: `folderId` (0 where the request names none). */
  folderId(folderId: number, state: State): number;
  /** The name the file gets; the contract: `qqfile`. `named` adds an extension for `fileType`. */
  name(qqfile: string, fileType: string, named: Named): string;
  /** The media type the name `qqfile` gives the file; the contract: `type`, its extension's, an own member of the table. */
  nameType(type: string | undefined, qqfile: string): string | undefined;
}

/** POST /file/createSimple (createSimpleRaw). */
export function createSimpleRaw(faults: FaultSet): CreateSimpleRawPlan {
  const plan: CreateSimpleRawPlan = {
    ...createSimple(faults),
    // Planted (createsimple-no-folder-uses-root): folder 0, the value of a missing folderId, taken as the master's root folder.
    folderId: (folderId, state) =>
      folderId === 0 && faults.has('createsimple-no-folder-uses-root')
        ? [...state.nodes.values()].find((n) => n.masterId === undefined)!.rootFolderId
        : folderId,
    // Planted: qqfile is checked but the file gets the default name.
    name: (qqfile, fileType, named) => (faults.has('createsimple-raw-ignores-qqfile') ? named('new_file', fileType, plan) : qqfile),
    // Planted (media-type-inherited-member): the extension is looked up with the members every object inherits, so
    // `x.__proto__` gives the file Object.prototype as its fileType.
    nameType: (type, qqfile) =>
      faults.has('media-type-inherited-member') && qqfile.includes('.')
        ? (Reflect.get(MEDIA_TYPES, qqfile.slice(qqfile.lastIndexOf('.') + 1).toLowerCase()) as string | undefined)
        : type,
  };
  return plan;
}

/** The hooks of the download of a JSON create's `sourceURL`. */
export interface DownloadPlan {
  /** Whether the source's answer is refused; the contract: when it has an error status (`failed`). */
  failed(failed: boolean): boolean;
  /** The chunks of an answer (of `status`) without a body; the contract: `chunks`, none. */
  noBody(chunks: Uint8Array[], status: number): Uint8Array[];
}

/** The hooks of POST /file/create (JSON). */
export interface CreateFromUrlPlan extends CreatePlan, DownloadPlan {
  /** The body as the handler reads it: a member a fault leaves unread is absent. */
  body(b: Partial<FileCreateRequest>): Partial<FileCreateRequest>;
  /** The name the file gets, before an extension is added; the contract: `name`, the request's or else the URL's (`fromUrl`). */
  name(name: string | undefined, fromUrl: string | undefined): string | undefined;
}

/** POST /file/create (createFromUrl). */
export function createFromUrl(faults: FaultSet): CreateFromUrlPlan {
  return {
    ...create(faults),
    // Planted: an answer with an error status is stored as the file, its error page as the content.
    failed: (failed) => failed && !faults.has('source-error-stored'),
    // Planted (source-no-content-filled): an answer without a body stands in for its content with its status line.
    noBody: (chunks, status) => (faults.has('source-no-content-filled') ? [Buffer.from(`HTTP ${status}`)] : chunks),
    body: (sent) => {
      const b = { ...sent };
      // Planted: the metadata of the body (description, nice and alternate URLs) is left for a later save that never comes.
      if (faults.has('url-create-metadata-dropped')) unread(b, 'description', 'niceURL', 'alternateURLs');
      // Planted (url-create-urls-dropped): the nice and alternate URLs alone, which a file record need not show, are left unread.
      if (faults.has('url-create-urls-dropped')) unread(b, 'niceURL', 'alternateURLs');
      // Planted: overwriteExisting is not read, so a file of the same name gets a renamed sibling.
      if (faults.has('url-create-overwrite-ignored')) unread(b, 'overwriteExisting');
      return b;
    },
    // Planted: the downloaded file's own name wins over the one the request gives.
    name: (name, fromUrl) => (faults.has('url-create-name-from-url') ? fromUrl || name : name),
  };
}

/** How a save stores the uploaded `part` into `file`: the contract's state change, or what a fault makes of it. */
type Store = (state: State, file: FileObj, part: UploadPart, description: string | undefined, plan: ContentPlan) => void;

/** The hooks of POST /file/save/{id} (multipart). */
export interface SaveMultipartPlan extends PartPlan {
  /** The state change that stores the uploaded content; the contract: `store`. */
  store(store: Store): Store;
}

/** POST /file/save/{id} (saveMultipart). */
export function saveMultipart(faults: FaultSet): SaveMultipartPlan {
  return {
    ...parts(faults),
    store: (store) => {
      // Planted: the save answers OK but keeps the old content: nothing is stored.
      if (faults.has('save-multipart-ignored')) return () => undefined;
      // Planted (save-multipart-drops-description): a save without a description part leaves the file without one.
      if (faults.has('save-multipart-drops-description'))
        return (state, file, part, description, plan) => {
          store(state, file, part, description, plan);
          if (description === undefined) Reflect.deleteProperty(file, 'description');
        };
      return store;
    },
  };
}
