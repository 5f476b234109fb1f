/**
 * What the bad-input suites (queries.suite.ts, bodies.suite.ts) send their requests about: the bench
 * of a test's sandbox objects, and a valid request of every operation on them (BASES), which a test
 * breaks in one place. Each request is a valid one on the test's own sandbox objects with one thing
 * broken, so a server that wrongly serves it changes nothing but the sandbox.
 */
import fc from 'fast-check';
import { uniqueFileName, uniqueFolderName } from '../../generators/requests.ts';
import { SetupError, type CallSpec, type OperationId } from '../../harness/api.ts';
import { startFileHost, type FileHost } from '../../harness/filehost.ts';
import { createFolderStep, uploadFileStep } from '../../harness/steps.ts';
import { PerRun, type ConformanceContext } from '../../harness/suite.ts';

/** Objects of a bench whose test sends only requests that read (schemas/operations.ts onlyReads): made once per suite file and run. */
const readObjects = new PerRun<Promise<{ top: number; sub: number; file: number; fileName: string }>>();

/** What the tests' requests act on: a sandbox folder with a sub-folder and a file, a localized file, and fresh folders to delete. */
export class Bench {
  private made?: Promise<{ top: number; sub: number; file: number; fileName: string }>;
  private localized?: Promise<{ master: number; copy: number }>;
  private host?: Promise<FileHost>;
  private n = 0;

  /** `shared`: the test's requests only read, so its objects are those of the other such tests of its file. */
  constructor(
    readonly t: ConformanceContext,
    private readonly shared = false,
  ) {}

  /** The fixture's channel; without multichannelling only NEG-06 names one, in requests about ids that do not exist. */
  get channel(): number {
    return this.t.fixture.channelNodeId ?? this.t.fixture.masterNodeId;
  }

  /** A fresh realistic folder name from the test's seed. */
  folderName(): string {
    return fc.sample(uniqueFolderName(), { seed: this.t.seed + this.n++, numRuns: 1 })[0]!;
  }

  /** A fresh realistic file name from the test's seed. */
  fileName(): string {
    return fc.sample(uniqueFileName(), { seed: this.t.seed + this.n++, numRuns: 1 })[0]!;
  }

  /** The test's folder (in the run's sandbox), a sub-folder and a file in it, created on first use. */
  objects(): Promise<{ top: number; sub: number; file: number; fileName: string }> {
    const make = async () => {
      const top = await this.t.folder();
      const sub = (await createFolderStep(this.t, top, this.folderName())).id!;
      const fileName = this.fileName();
      const uploaded = await uploadFileStep(this.t, top, fileName, 'negative input\n', 'text/plain');
      return { top, sub, file: uploaded.id!, fileName: uploaded.name ?? fileName };
    };
    this.made ??= this.shared ? readObjects.retrying(make) : make();
    return this.made;
  }

  /** A new folder in the test's folder, for an operation that uses its folder up (delete). */
  async freshFolder(): Promise<number> {
    return (await createFolderStep(this.t, (await this.objects()).top, this.folderName())).id!;
  }

  /** The bench's file localized in the channel: its master id and the id the channel lists its copy under. */
  localizedFile(): Promise<{ master: number; copy: number }> {
    this.localized ??= (async () => {
      const { top } = await this.objects();
      const made = await uploadFileStep(this.t, top, this.fileName(), 'localized\n', 'text/plain');
      const [master, name] = [made.id!, made.name];
      await this.t.must('file.localize', { path: { id: master }, json: { channelId: this.channel } });
      // The copy is the file of that name under an id of its own: what a copy says in `inherited` is not said
      // (open choice localized-copy-inherited).
      const listed = await this.t.must('folder.getFiles', { path: { folderId: top }, query: { nodeId: this.channel } });
      const copy = listed.files?.find((f) => f.name === name && f.id !== master)?.id;
      if (copy === undefined)
        throw new SetupError(`after localizing file ${master}, channel ${this.channel} lists no copy of it under an id of its own`);
      return { master, copy };
    })();
    return this.localized;
  }

  /** A URL the target can download a small file from (file.create.json): the configured file host, running until close. */
  async sourceUrl(name: string): Promise<string> {
    this.host ??= startFileHost({
      fallback: () => ({ data: new TextEncoder().encode('downloaded content\n'), contentType: 'text/plain' }),
    });
    return `${(await this.host).url}/files/${encodeURIComponent(name)}`;
  }

  /** Stops the file host, if one was started. */
  async close(): Promise<void> {
    await (await this.host)?.close();
  }
}

/**
 * Runs a test body with a bench and closes the bench afterwards. A test whose every request only reads
 * (`shared`) uses the objects the other such tests of its file use.
 */
export function withBench(
  body: (t: ConformanceContext, b: Bench) => Promise<void>,
  options: { shared?: boolean } = {},
): (t: ConformanceContext) => Promise<void> {
  return async (t) => {
    const b = new Bench(t, options.shared);
    try {
      await body(t, b);
    } finally {
      await b.close();
    }
  };
}

/**
 * Where a request names its subject (the object it is about): in the path, as a string (query or body
 * member, where a global id also fits), as an integer, or nowhere.
 */
type Subject = 'path' | 'string' | 'integer' | 'none';

/** A valid request of an operation on the bench's objects; `id` replaces its subject's id. */
interface Base {
  subject: Subject;
  spec: (b: Bench, id?: string | number) => Promise<CallSpec>;
}

/** A text as the bytes of a body or a file. */
export const data = (text: string) => new TextEncoder().encode(text);
/** A small text file as the data part of a multipart upload. */
export const upload = (name: string) => ({ name: 'fileBinaryData', filename: name, contentType: 'text/plain', data: data(`${name}\n`) });

/** Every operation's valid request on the bench's objects. */
export const BASES: Record<OperationId, Base> = {
  'folder.list': { subject: 'string', spec: async (b, id) => ({ query: { folderId: String(id ?? (await b.objects()).top) } }) },
  'folder.create': {
    subject: 'string',
    spec: async (b, id) => ({ json: { motherId: String(id ?? (await b.objects()).top), name: b.folderName() } }),
  },
  'folder.disinherit.getMany': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] } }) },
  'folder.disinherit.setMany': {
    subject: 'string',
    spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).sub)] }, json: {} }),
  },
  'folder.disinherit.get': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.disinherit.set': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub }, json: {} }) },
  'folder.findFiles': { subject: 'integer', spec: async (b, id) => ({ query: { folderId: id ?? (await b.objects()).top } }) },
  'folder.findPages': { subject: 'integer', spec: async (b, id) => ({ query: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getFolders.post': { subject: 'string', spec: async (b, id) => ({ json: { id: String(id ?? (await b.objects()).top) } }) },
  'folder.getFolders': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.breadcrumb': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.count': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.delete': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.freshFolder()) } }) },
  'folder.getExternalLinks': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getFiles': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getItems': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.getPages': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.getTemplates': { subject: 'path', spec: async (b, id) => ({ path: { folderId: id ?? (await b.objects()).top } }) },
  'folder.load': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top } }) },
  'folder.localizationinfo': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).top }, query: { recursive: true } }),
  },
  'folder.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub } }) },
  'folder.localize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).sub }, json: { channelId: b.channel } }),
  },
  'file.list': { subject: 'string', spec: async (b, id) => ({ query: { folderId: String(id ?? (await b.objects()).top) } }) },
  'file.copy': {
    subject: 'integer',
    spec: async (b, id) => ({ json: { file: { id: id ?? (await b.objects()).file }, targetFolder: { id: (await b.objects()).top } } }),
  },
  'file.create.multipart': {
    subject: 'string',
    spec: async (b, id) => {
      const name = b.fileName();
      return { multipart: { fields: { folderId: String(id ?? (await b.objects()).top), fileName: name }, files: [upload(name)] } };
    },
  },
  'file.create.json': {
    subject: 'integer',
    spec: async (b, id) => {
      const name = b.fileName();
      return { json: { folderId: id ?? (await b.objects()).top, name, sourceURL: await b.sourceUrl(name) } };
    },
  },
  'file.createSimple.multipart': {
    subject: 'string',
    spec: async (b, id) => {
      const name = b.fileName();
      return { query: { folderId: String(id ?? (await b.objects()).top), qqfile: name }, multipart: { files: [upload(name)] } };
    },
  },
  'file.createSimple.raw': {
    subject: 'integer',
    spec: async (b, id) => {
      const name = b.fileName();
      return {
        query: { folderId: id ?? (await b.objects()).top, qqfile: name },
        raw: { contentType: 'text/plain', data: data(`${name}\n`) },
      };
    },
  },
  'file.disinherit.get': { subject: 'string', spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] } }) },
  'file.disinherit.set': {
    subject: 'string',
    spec: async (b, id) => ({ query: { id: [String(id ?? (await b.objects()).file)] }, json: {} }),
  },
  'file.load': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizationinfo': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localizations': { subject: 'path', spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file } }) },
  'file.localize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { channelId: b.channel } }),
  },
  'file.move': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, json: { folderId: (await b.objects()).sub } }),
  },
  'file.push2master': {
    subject: 'path',
    spec: async (b, id) => ({
      path: { id: id ?? (await b.localizedFile()).copy },
      // masterId is left out: whether it names the master node or the master object is not said.
      json: { channelId: b.channel },
    }),
  },
  'file.save.json': {
    subject: 'path',
    // Which members a save needs is not said (open choice save-partial-record): the file's own name goes along.
    spec: async (b, id) => ({
      path: { id: id ?? (await b.objects()).file },
      json: { file: { name: (await b.objects()).fileName, description: 'saved by the negative suite' } },
    }),
  },
  'file.save.multipart': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.objects()).file }, multipart: { files: [upload(b.fileName())] } }),
  },
  'file.unlocalize': {
    subject: 'path',
    spec: async (b, id) => ({ path: { id: id ?? (await b.localizedFile()).copy }, json: { channelId: b.channel } }),
  },
  'file.usage.file': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.folder': { subject: 'integer', spec: async (b, id) => ({ query: { id: [id ?? (await b.objects()).file] } }) },
  'file.usage.page': { subject: 'none', spec: async () => ({}) },
  'file.usage.syncableObjects': {
    subject: 'integer',
    spec: async (b, id) => ({
      query: { ids: [id ?? (await b.objects()).file], srcNodeId: b.channel, dstNodeId: b.t.fixture.masterNodeId },
    }),
  },
};
