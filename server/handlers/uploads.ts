/**
 * Uploads of contract 4.3: POST /file/create (multipart and JSON from `sourceURL`), POST
 * /file/createSimple (multipart and raw body) and POST /file/save/{id} (multipart). Part names and
 * naming rules follow the reference notes; bytes are kept exactly (UPL-07).
 */
import { MEDIA_TYPES } from '../../schemas/media-types.ts';
import type { FileCreateRequest } from '../../schemas/types.ts';
import {
  allocateId,
  globalIdFor,
  insertObject,
  nowSeconds,
  setsNamed,
  type FileObj,
  type FolderObj,
  type State,
  type View,
} from '../state.ts';
import { Refusal, type FaultSet, type Handler, type HandlerContext, type OpRequest, type UploadPart } from '../types.ts';
import { bodyOf, checkName, nodeView, qBool, qInt, qStr, resolveObject } from './common.ts';
import { ownNames, takenFileNames } from './files.ts';
import { refuseInInheritedFolder } from './folders.ts';
import { uniqueFileName } from './mutations.ts';
import { fileRecord } from './render.ts';

/** Names of the data part, compared ignoring case (reference notes). */
const DATA_PARTS = ['filebinarydata', 'filedata', 'files[]', 'qqfile'];

/** The media type a file name's extension suggests, if known. */
export function typeOfName(name: string): string | undefined {
  const dot = name.lastIndexOf('.');
  const ext = name.slice(dot + 1).toLowerCase();
  // Own members only: `a.__proto__` or `a.constructor` names no media type (an object's inherited members are none).
  return dot > 0 && Object.hasOwn(MEDIA_TYPES, ext) ? MEDIA_TYPES[ext] : undefined;
}

/**
 * The name with an extension from the media type added when it has none (reference notes); the contract
 * leaves it open (open choice extension-from-media-type), and the variations keep the name or map
 * application/octet-stream to "bin" as mime-db does.
 */
function withExtension(name: string, mediaType: string, faults: FaultSet): string {
  if (name.lastIndexOf('.') > 0 || faults.has('name-keeps-no-extension')) return name;
  if (faults.has('octet-stream-gets-bin') && mediaType.toLowerCase() === 'application/octet-stream') return `${name}.bin`;
  const ext = Object.entries(MEDIA_TYPES).find(([, t]) => t === mediaType.toLowerCase())?.[0];
  return ext ? `${name}.${ext}` : name;
}

/** The largest upload under the variation upload-limit-2mib (contract 8: "upload size limits ... not shown"). */
const UPLOAD_LIMIT_2MIB = 2 * 1024 * 1024;

/**
 * Refuses content the variations of the open choices empty-upload and upload-size-limit do not take;
 * the reference server takes every size up to its body limit.
 */
function checkContent(data: Buffer, faults: FaultSet): void {
  if (data.length === 0 && faults.has('empty-upload-refused'))
    throw new Refusal('INVALIDDATA', 'the file data is empty: an empty file is not stored', 'fileBinaryData');
  if (data.length > UPLOAD_LIMIT_2MIB && faults.has('upload-limit-2mib'))
    throw new Refusal('INVALIDDATA', `the file data exceeds ${UPLOAD_LIMIT_2MIB} bytes`, 'fileBinaryData', 413);
}

/** The kind an upload of this media type makes: a file, or an image under the variation image-uploads-are-images. */
function uploadKind(fileType: string, faults: FaultSet): 'file' | 'image' {
  return faults.has('image-uploads-are-images') && fileType.toLowerCase().startsWith('image/') ? 'image' : 'file';
}

/** The bare media type of a Content-Type value. */
function bareType(contentType: string | undefined): string | undefined {
  const t = contentType?.split(';')[0]?.trim().toLowerCase();
  return t && t !== '*/*' ? t : undefined;
}

/** The data part of a multipart body: its name, ignoring case, is one of the known names or `databodypart`. */
function dataPart(req: OpRequest, custom: string | undefined, faults: FaultSet): UploadPart {
  const names = custom ? [custom.toLowerCase(), ...DATA_PARTS] : DATA_PARTS;
  const part = req.multipart?.files.find((p) => names.includes(p.fieldName.toLowerCase()));
  // Planted: a body without a data part is taken as an empty file.
  if (!part && faults.has('multipart-no-data-part-empty-file'))
    return { fieldName: 'fileBinaryData', mimeType: 'application/octet-stream', data: Buffer.alloc(0) };
  if (!part)
    throw new Refusal(
      'INVALIDDATA',
      `no file data part: send the data as one of fileBinaryData, Filedata, files[], qqfile${custom ? ` or ${custom}` : ''}`,
      custom ?? 'fileBinaryData',
    );
  return part;
}

function boolText(value: string | undefined, property: string): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  if (!/^(true|false)$/i.test(value.trim())) throw new Refusal('INVALIDDATA', `${property}: "${value}" is not true or false`, property);
  return value.trim().toLowerCase() === 'true';
}

function intText(value: string | undefined, property: string, faults: FaultSet): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  // Planted (node-id-one-digit): a pattern written for the one-digit node ids of a test system.
  const pattern = faults.has('node-id-one-digit') ? /^\d$/ : /^\d+$/;
  // Any safe integer: ids of 16 digits (up to 2^53 - 1) are ids too.
  if (!pattern.test(value.trim()) || !Number.isSafeInteger(Number(value.trim())))
    throw new Refusal('INVALIDDATA', `${property}: "${value}" is not an id`, property);
  return Number(value.trim());
}

/** What an upload asks for, validated, before anything changes. */
interface UploadPlan {
  folder: FolderObj;
  view: View;
  name: string;
  data: Buffer;
  fileType: string;
  description?: string;
  /** Replace the content of the file with exactly this name. */
  overwrite?: FileObj;
  niceUrl?: string;
  alternateUrls?: string[];
}

/** What an upload request gives, before validation; `nameProperty` is the request field naming the file. */
interface UploadRequest {
  folderId: string | number | undefined;
  nodeId?: number;
  name: string;
  data: Buffer;
  fileType: string;
  description?: string;
  overwrite?: boolean;
  failOnDuplicate?: boolean;
  nameProperty: string;
  niceUrl?: string;
  alternateUrls?: string[];
}

/**
 * Validates an upload: the folder (local or global id, in the view of `nodeId`), the name (path
 * traversal refused) and the duplicate rule: overwrite replaces the same-name file, failOnDuplicate
 * refuses INVALIDDATA `fileName`, otherwise the name becomes `base_1.ext` (UPL-05).
 */
function planUpload(state: State, ctx: HandlerContext, a: UploadRequest): UploadPlan {
  if (a.folderId === undefined || a.folderId === '')
    throw new Refusal('INVALIDDATA', 'folderId: the folder to create the file in is required', 'folderId');
  const { obj, view } = resolveObject(state, a.folderId, {
    kinds: ['folder'],
    view: nodeView(state, a.nodeId),
    what: 'folder',
    faults: ctx.faults,
    property: 'folderId',
  });
  const folder = obj as FolderObj;
  const wanted = checkName(a.name, a.nameProperty, 'file');
  const taken = takenFileNames(state, folder, view.nodeId, undefined, ownNames(uploadKind(a.fileType, ctx.faults), ctx.faults));
  let name = wanted;
  let overwrite: FileObj | undefined;
  if (a.overwrite && !ctx.faults.has('overwrite-creates-copy')) {
    // Planted: the folder's files are taken to exist, so an overwrite into a folder that never held anything fails (a 500).
    const index = state.children.get(folder.channelSetId);
    const files = ctx.faults.has('overwrite-empty-folder-fails') ? index!.file : index?.file;
    // Where uploads make images (variation image-uploads-are-images), the file of that name may be an image.
    const images = ctx.faults.has('image-uploads-are-images') ? index?.image : undefined;
    // Planted: any node's variant of the name matches, not only the one the view of the upload sees.
    const across = ctx.faults.has('overwrite-matches-across-views');
    const match = (set: number) =>
      state.sets.get(set)?.find((o) => (across || o.nodeId === view.nodeId) && o.name === wanted && !o.deleted);
    // The name index gives the candidates; only several matches need the folder's order (the last one wins).
    // Planted: every object of the name is a candidate, not only the folder's files: a sub-folder of that name is "replaced".
    const anyKind = ctx.faults.has('overwrite-matches-any-kind');
    const found = setsNamed(state, folder.channelSetId, wanted.toLowerCase()).filter(
      (set) => (anyKind || files?.has(set) || images?.has(set)) && match(set),
    );
    if (found.length === 1) overwrite = match(found[0]!) as FileObj;
    else if (found.length > 1)
      for (const set of [...(files ?? []), ...(images ?? [])]) {
        const v = match(set);
        if (v) overwrite = v as FileObj;
      }
  }
  // Variation (channel-create-refused): a new file of a channel only in a folder of the channel's own.
  if (!overwrite) refuseInInheritedFolder(state, ctx.faults, folder, view, nodeView(state, a.nodeId));
  if (!overwrite && taken.has(wanted.toLowerCase())) {
    // Variation upload-collision-refused: a collision is refused, as with failOnDuplicate, instead of renamed.
    if (a.failOnDuplicate || ctx.faults.has('upload-collision-refused'))
      throw new Refusal('INVALIDDATA', `a file named "${wanted}" already exists in the folder`, a.nameProperty);
    name = uniqueFileName(wanted, taken);
  }
  return {
    folder,
    view,
    name,
    data: a.data,
    fileType: a.fileType,
    ...(overwrite ? { overwrite } : {}),
    ...(a.description === undefined ? {} : { description: a.description }),
    ...(a.niceUrl ? { niceUrl: a.niceUrl } : {}),
    ...(a.alternateUrls ? { alternateUrls: a.alternateUrls } : {}),
  };
}

/** Carries out a validated upload and answers the FileUploadResponse members. */
function executeUpload(state: State, plan: UploadPlan, faults: FaultSet): Record<string, unknown> {
  checkContent(plan.data, faults);
  const now = nowSeconds(state);
  const data = faults.has('upload-drops-last-byte') && plan.data.length > 0 ? plan.data.subarray(0, plan.data.length - 1) : plan.data;
  let file: FileObj;
  if (plan.overwrite) {
    file = plan.overwrite;
    Object.assign(file, { data: Buffer.from(data), fileType: plan.fileType, edate: now, editorId: state.requesterId });
    if (plan.description !== undefined) file.description = plan.description;
  } else {
    const id = allocateId(state);
    // Uploads create files (never images), so every upload is listed by getFiles and GET /file; under the variation
    // image-uploads-are-images an image/* upload makes an image instead.
    file = {
      kind: uploadKind(plan.fileType, faults),
      id,
      globalId: globalIdFor(id),
      nodeId: plan.view.nodeId,
      channelSetId: id,
      parentSet: plan.folder.channelSetId,
      name: plan.name,
      description: plan.description ?? '',
      cdate: now,
      edate: now,
      creatorId: state.requesterId,
      editorId: state.requesterId,
      data: Buffer.from(data),
      fileType: plan.fileType,
      online: false,
      forceOnline: false,
      ...(plan.niceUrl ? { niceUrl: plan.niceUrl } : {}),
      ...(plan.alternateUrls ? { alternateUrls: [...plan.alternateUrls] } : {}),
    };
    insertObject(state, file);
  }
  return { success: true, file: fileRecord({ state, view: plan.view, faults }, file) };
}

/** POST /file/create (multipart): data part and text parts folderId, nodeId, fileName, description, overwrite, failOnDuplicate (UPL-01). */
export const createMultipart: Handler<State> = (state, req, ctx) => {
  const fields = req.multipart?.fields ?? {};
  const part = dataPart(req, fields.databodypart, ctx.faults);
  // Planted: the form is chosen by sniffing the content (a JSON object with a sourceURL), not by Content-Type.
  if (ctx.faults.has('multipart-json-data-as-url-create')) {
    let sniffed: unknown;
    try {
      sniffed = JSON.parse(part.data.toString('utf8'));
    } catch {
      sniffed = undefined;
    }
    if (typeof sniffed === 'object' && sniffed !== null && 'sourceURL' in sniffed)
      return createFromUrl(state, { ...req, operationId: 'file.create.json', body: sniffed }, ctx);
  }
  const fileType = part.mimeType || 'application/octet-stream';
  const given = fields.fileName || part.filename || 'new_file';
  // Planted: a name without an extension gets ".txt", whatever the part's media type.
  const name =
    ctx.faults.has('extensionless-name-gets-txt') && !given.includes('.') ? `${given}.txt` : withExtension(given, fileType, ctx.faults);
  const plan = planUpload(state, ctx, {
    folderId: fields.folderId,
    nodeId: intText(fields.nodeId, 'nodeId', ctx.faults),
    name,
    data: part.data,
    fileType,
    description: fields.description,
    // Variation create-overwrite-part-ignored: the contract names no overwrite for this form, so the text part may go unread.
    // Planted (multipart-overwrite-text-truthy): the part counts as true whatever it says, "false" too.
    overwrite: ctx.faults.has('create-overwrite-part-ignored')
      ? undefined
      : ctx.faults.has('multipart-overwrite-text-truthy')
        ? fields.overwrite !== undefined || undefined
        : boolText(fields.overwrite, 'overwrite'),
    failOnDuplicate: boolText(fields.failOnDuplicate, 'failOnDuplicate'),
    nameProperty: 'fileName',
  });
  return executeUpload(state, plan, ctx.faults);
};

/** POST /file/createSimple (multipart): `databodypart` names the data part, `qqfile` the file (UPL-04). */
export const createSimpleMultipart: Handler<State> = (state, req, ctx) => {
  const fields = req.multipart?.fields ?? {};
  const custom = ctx.faults.has('createsimple-ignores-databodypart') ? undefined : (qStr(req, 'databodypart') ?? fields.databodypart);
  const part = dataPart(req, custom, ctx.faults);
  const fileType = part.mimeType || 'application/octet-stream';
  // Variation createsimple-part-filename-first: the part's own file name comes first, as a generic multipart parser gives it.
  const partFirst = ctx.faults.has('createsimple-part-filename-first') ? part.filename : undefined;
  // Planted (createsimple-multipart-ignores-qqfile): the name is read as the multipart create reads it, without qqfile.
  const qqfile = ctx.faults.has('createsimple-multipart-ignores-qqfile') ? undefined : qStr(req, 'qqfile');
  const name = withExtension(partFirst || qqfile || fields.fileName || part.filename || 'new_file', fileType, ctx.faults);
  // Planted: a qqfile without an extension is refused, as if it were no name (no literal the handler already has, so that
  // the survivors' keys of the lines below keep their occurrence numbers).
  if (ctx.faults.has('createsimple-extensionless-qqfile-refused') && qqfile && qqfile.lastIndexOf('.') <= 0)
    throw new Refusal('INVALIDDATA', `${qqfile}: a name with an extension is required`);
  const plan = planUpload(state, ctx, {
    folderId: qStr(req, 'folderId') || fields.folderId,
    nodeId: intText(qStr(req, 'nodeId') ?? fields.nodeId, 'nodeId', ctx.faults),
    name,
    data: part.data,
    fileType,
    // Planted: the query's description is not read, only a description form field.
    description: (ctx.faults.has('createsimple-description-ignored') ? undefined : qStr(req, 'description')) ?? fields.description,
    // `overwrite` is a query parameter of createSimple (contract 4.3), whose declared default false the server fills in.
    // Planted (overwrite-absent-replaces): without overwrite the file of the same name is replaced, as if overwrite=true.
    overwrite: (ctx.faults.has('overwrite-absent-replaces') && req.rawQuery.overwrite === undefined) || qBool(req, 'overwrite', false),
    failOnDuplicate: boolText(fields.failOnDuplicate, 'failOnDuplicate'),
    nameProperty: 'fileName',
  });
  return executeUpload(state, plan, ctx.faults);
};

/**
 * POST /file/createSimple (raw body): `qqfile` names the file and is required (UPL-03). `folderId`
 * ("required int") is a Java primitive there: "`createSimple` without `folderId` looks for folder 0,
 * which does not exist, and is refused as not found" (reference notes).
 */
export const createSimpleRaw: Handler<State> = (state, req, ctx) => {
  const qqfile = qStr(req, 'qqfile');
  if (!qqfile) throw new Refusal('INVALIDDATA', 'qqfile: the file name is required', 'qqfile');
  const folderId = qInt(req, 'folderId', 0);
  // Planted (createsimple-no-folder-uses-root): folder 0, the value of a missing folderId, taken as the master's root folder.
  const target =
    folderId === 0 && ctx.faults.has('createsimple-no-folder-uses-root')
      ? [...state.nodes.values()].find((n) => n.masterId === undefined)!.rootFolderId
      : folderId;
  const fileType = typeOfName(qqfile) ?? bareType(req.raw?.contentType) ?? 'application/octet-stream';
  const plan = planUpload(state, ctx, {
    folderId: target,
    nodeId: qInt(req, 'nodeId', 0),
    // Planted: qqfile is checked but the file gets the default name.
    name: ctx.faults.has('createsimple-raw-ignores-qqfile') ? withExtension('new_file', fileType, ctx.faults) : qqfile,
    data: req.raw?.data ?? Buffer.alloc(0),
    fileType,
    description: ctx.faults.has('createsimple-description-ignored') ? undefined : qStr(req, 'description'),
    // Planted (overwrite-absent-replaces), as in the multipart form.
    overwrite: (ctx.faults.has('overwrite-absent-replaces') && req.rawQuery.overwrite === undefined) || qBool(req, 'overwrite', false),
    nameProperty: 'qqfile',
  });
  return executeUpload(state, plan, ctx.faults);
};

/** Downloads a URL over http(s) only, within the state's timeout and size limit; failures are refused INVALIDDATA `sourceURL`. */
async function download(state: State, source: string, faults: FaultSet): Promise<{ data: Buffer; contentType?: string; name?: string }> {
  let url: URL;
  try {
    url = new URL(source);
  } catch {
    throw new Refusal('INVALIDDATA', `sourceURL: "${source}" is not a URL`, 'sourceURL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Refusal('INVALIDDATA', 'sourceURL: only http and https URLs are loaded', 'sourceURL');
  const refuse = (why: string) => new Refusal('INVALIDDATA', `sourceURL: ${why}`, 'sourceURL');
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), state.sourceUrlTimeoutMs);
  try {
    const res = await fetch(url, { signal: controller.signal, redirect: 'follow' });
    // Planted: an answer with an error status is stored as the file, its error page as the content.
    if (!res.ok && !faults.has('source-error-stored')) throw refuse(`the server answered HTTP ${res.status}`);
    if (!/^https?:$/.test(new URL(res.url || url.href).protocol)) throw refuse('redirected away from http(s)');
    const declared = Number(res.headers.get('content-length'));
    if (declared > state.sourceUrlMaxBytes) throw refuse(`the content exceeds ${state.sourceUrlMaxBytes} bytes`);
    const chunks: Buffer[] = [];
    let size = 0;
    // Planted (source-no-content-filled): an answer without a body stands in for its content with its status line.
    const noBody = faults.has('source-no-content-filled') ? [Buffer.from(`HTTP ${res.status}`)] : [];
    for await (const chunk of res.body ?? noBody) {
      size += (chunk as Uint8Array).length;
      if (size > state.sourceUrlMaxBytes) throw refuse(`the content exceeds ${state.sourceUrlMaxBytes} bytes`);
      chunks.push(Buffer.from(chunk as Uint8Array));
    }
    const segment = url.pathname.split('/').pop() ?? '';
    let last = segment;
    try {
      last = decodeURIComponent(segment);
    } catch {
      // A malformed escape stays as sent; checkName decides whether it is usable.
    }
    return {
      data: Buffer.concat(chunks),
      ...(res.headers.get('content-type') ? { contentType: res.headers.get('content-type')! } : {}),
      ...(last ? { name: last } : {}),
    };
  } catch (err) {
    if (err instanceof Refusal) throw err;
    throw refuse(
      controller.signal.aborted ? `no answer within ${state.sourceUrlTimeoutMs} ms` : `could not be loaded (${(err as Error).message})`,
    );
  } finally {
    clearTimeout(timer);
    controller.abort();
  }
}

/** POST /file/create (JSON): the file's data is downloaded from `sourceURL` (UPL-02). */
export const createFromUrl: Handler<State> = async (state, req, ctx) => {
  const b = bodyOf<FileCreateRequest>(req);
  // Planted: the metadata of the body (description, nice and alternate URLs) is left for a later save that never comes.
  const bare = ctx.faults.has('url-create-metadata-dropped');
  if (!b.sourceURL) throw new Refusal('INVALIDDATA', 'sourceURL: required', 'sourceURL');
  const plan = (data: Buffer, name: string, fileType: string) =>
    planUpload(state, ctx, {
      folderId: b.folderId,
      nodeId: b.nodeId,
      name,
      data,
      fileType,
      ...(b.description === undefined || bare ? {} : { description: b.description }),
      // Planted: overwriteExisting is not read, so a file of the same name gets a renamed sibling.
      overwrite: ctx.faults.has('url-create-overwrite-ignored') ? false : (b.overwriteExisting ?? false),
      nameProperty: 'name',
      ...(b.niceURL && !bare ? { niceUrl: b.niceURL } : {}),
      ...(b.alternateURLs && !bare ? { alternateUrls: b.alternateURLs } : {}),
    });
  // Validate before downloading (a refused request fetches nothing), and again after: the store may have changed meanwhile.
  plan(Buffer.alloc(0), b.name || 'new_file', 'application/octet-stream');
  const got = await download(state, b.sourceURL, ctx.faults);
  const fileType = bareType(got.contentType) ?? typeOfName(b.name || got.name || '') ?? 'application/octet-stream';
  // Planted: the downloaded file's own name wins over the one the request gives.
  const name = withExtension(
    (ctx.faults.has('url-create-name-from-url') ? got.name || b.name : b.name || got.name) || 'new_file',
    fileType,
    ctx.faults,
  );
  return executeUpload(state, plan(got.data, name, fileType), ctx.faults);
};

/** POST /file/save/{id} (multipart): the data part replaces the content, the id stays (UPL-06). */
export const saveMultipart: Handler<State> = (state, req, ctx) => {
  const fields = req.multipart?.fields ?? {};
  const view = nodeView(state, intText(fields.nodeId, 'nodeId', ctx.faults) ?? qInt(req, 'nodeId'));
  const { obj } = resolveObject(state, req.path.id, { kinds: ['file', 'image'], view, what: 'file', faults: ctx.faults, property: 'id' });
  const part = dataPart(req, fields.databodypart, ctx.faults);
  if (ctx.faults.has('save-multipart-ignored')) return {};
  checkContent(part.data, ctx.faults);
  const file = obj as FileObj;
  file.data = Buffer.from(part.data);
  file.fileType = part.mimeType || file.fileType;
  if (fields.description !== undefined) file.description = fields.description;
  file.edate = nowSeconds(state);
  file.editorId = state.requesterId;
  return {};
};
