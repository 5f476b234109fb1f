/**
 * The deterministic default data of the reference server, in the format of dataset-format.ts: every
 * requirement of the catalogue has data to work on. server/varied-dataset.ts varies what it keeps constant.
 */
import {
  DATASET_FORMAT,
  makeGlobalId,
  type Dataset,
  type DatasetDeleteInfo,
  type DatasetFile,
  type DatasetFolder,
  type DatasetImage,
  type DatasetObject,
  type DatasetPage,
  type DatasetProperty,
  type DatasetTag,
  type DatasetTemplate,
  type DatasetTimeManagement,
  type DatasetUser,
} from './dataset-format.ts';
import { MEDIA_TYPES } from '../schemas/media-types.ts';

/** Fixture epoch (2023-11-14): fixture timestamps are seconds around it. */
const T0 = 1_700_000_000;
const DAY = 86_400;
/** Far-future time management dates, so `timedue` filters have answers whenever the suite runs. */
const FUTURE = 2_000_000_000;

const USERS: DatasetUser[] = [
  {
    id: 1,
    login: 'admin',
    firstName: 'Alex',
    lastName: 'Admin',
    email: 'admin@example.com',
    description: 'System administrator',
    groupIds: [1],
  },
  { id: 2, login: 'jdoe', firstName: 'John', lastName: 'Doe', email: 'john.doe@example.com', groupIds: [2] },
  { id: 3, login: 'mmuster', firstName: 'Max', lastName: 'Mustermann', email: 'max.mustermann@example.com', groupIds: [2] },
  { id: 4, login: 'asmith', firstName: 'Anna', lastName: 'Smith', email: 'anna.smith@example.com', groupIds: [3] },
  { id: 5, login: 'publisher', firstName: 'Paula', lastName: 'Berger', email: 'paula.berger@example.com', groupIds: [2] },
];

const CONSTRUCTS = {
  richtext: { id: 1, keyword: 'richtext', name: 'Rich text', parts: [{ id: 11, keyword: 'text', name: 'Text', type: 'RICHTEXT' }] },
  link: {
    id: 2,
    keyword: 'link',
    name: 'Link',
    parts: [
      { id: 21, keyword: 'url', name: 'URL', type: 'PAGE' },
      { id: 22, keyword: 'text', name: 'Link text', type: 'STRING' },
    ],
  },
  filelink: { id: 3, keyword: 'filelink', name: 'File link', parts: [{ id: 31, keyword: 'file', name: 'File', type: 'FILE' }] },
  image: { id: 4, keyword: 'image', name: 'Image', parts: [{ id: 41, keyword: 'image', name: 'Image', type: 'IMAGE' }] },
  noderef: { id: 5, keyword: 'noderef', name: 'Node reference', parts: [{ id: 51, keyword: 'node', name: 'Node', type: 'NODE' }] },
  select: { id: 6, keyword: 'select', name: 'Select', parts: [{ id: 61, keyword: 'choice', name: 'Choice', type: 'SELECT' }] },
  folderlink: { id: 7, keyword: 'folderlink', name: 'Folder link', parts: [{ id: 71, keyword: 'folder', name: 'Folder', type: 'FOLDER' }] },
} as const;

type ConstructKey = keyof typeof CONSTRUCTS;

/** A 1x1 transparent PNG: realistic image bytes for the fixture. */
const PNG_1X1 = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63000100000500010d0a2db40000000049454e44ae426082',
  'hex',
);

function pdf(title: string): Buffer {
  return Buffer.from(`%PDF-1.4\n1 0 obj << /Title (${title}) >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`, 'latin1');
}

function jpeg(seed: number): Buffer {
  return Buffer.concat([
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
    Buffer.from('JFIF\0', 'latin1'),
    Buffer.alloc(16 + seed, seed & 0xff),
    Buffer.from([0xff, 0xd9]),
  ]);
}

interface ObjOpts {
  description?: string;
  creatorId?: number;
  editorId?: number;
  cdate?: number;
  edate?: number;
  deleted?: DatasetDeleteInfo;
  excluded?: boolean;
  disinheritDefault?: boolean;
  disinherit?: number[];
  tags?: DatasetTag[];
  /** The node the object lives in (default: the master node). */
  nodeId?: number;
}

/** Builds the default fixture with sequential ids; every value is derived from its position. */
export class FixtureBuilder {
  private nextId = 100;
  private nextTagId = 50_000;
  private seq = 0;
  readonly ds: Dataset = {
    format: DATASET_FORMAT,
    requesterId: 1,
    // A copy: a caller may change its data set, never the next one's.
    users: structuredClone(USERS),
    groups: [
      { id: 1, name: 'Administrators', description: 'Full access' },
      { id: 2, name: 'Editors', description: 'Content editors' },
      { id: 3, name: 'Translators', description: 'Translation team' },
    ],
    languages: [
      { id: 1, code: 'en', name: 'English' },
      { id: 2, code: 'de', name: 'Deutsch' },
      { id: 3, code: 'fr', name: 'Français' },
    ],
    markupLanguages: [
      { id: 1, name: 'HTML', extension: 'html', contentType: 'text/html', excludeFromPublishing: false },
      { id: 2, name: 'PHP', extension: 'php', contentType: 'application/x-httpd-php', excludeFromPublishing: false },
      { id: 3, name: 'XML', extension: 'xml', contentType: 'text/xml', excludeFromPublishing: false },
      { id: 4, name: 'Text', extension: 'txt', contentType: 'text/plain', feature: 'plaintext', excludeFromPublishing: true },
    ],
    constructs: Object.values(CONSTRUCTS).map((c, i) => ({
      id: c.id,
      globalId: makeGlobalId(`construct:${c.id}`),
      keyword: c.keyword,
      name: c.name,
      description: `${c.name} construct`,
      category: i < 4 ? 'Content' : 'Structure',
      icon: `${c.keyword}.png`,
      parts: c.parts.map((p) => ({ ...p })),
      cdate: T0 - 400 * DAY,
      edate: T0 - 300 * DAY,
      creatorId: 1,
      editorId: 1,
    })),
    nodes: [],
    folders: [],
    files: [],
    images: [],
    pages: [],
    templates: [],
  };

  /** Ids 1 (master), 2 and 3 (channels); root folders are created with them. */
  node(id: number, name: string, host: string, masterId?: number): DatasetFolder {
    const rootId = this.id();
    const masterRoot =
      masterId === undefined
        ? undefined
        : this.ds.folders.find((f) => f.id === this.ds.nodes.find((n) => n.id === masterId)!.rootFolderId)!;
    this.ds.nodes.push({
      id,
      globalId: makeGlobalId(`node:${id}`),
      name,
      ...(masterId === undefined ? {} : { masterId }),
      rootFolderId: rootId,
      host,
      https: id !== 3,
      publishDir: '/',
      binaryPublishDir: '/',
      languageIds: [1, 2, 3],
      contentEditor: id === 3 ? 'aloha' : 'gcmsui',
      cdate: T0 - 500 * DAY + id * DAY,
      edate: T0 - 200 * DAY,
      creatorId: 1,
      editorId: 1,
    });
    const root: DatasetFolder = {
      ...this.base(rootId, name, { nodeId: id, description: `Root folder of ${name}`, cdate: T0 - 500 * DAY + id * DAY }),
      ...(masterRoot ? { channelSetId: masterRoot.channelSetId, masterId: masterRoot.id } : {}),
      motherId: null,
      publishDir: '/',
      templateIds: [],
    };
    this.ds.folders.push(root);
    return root;
  }

  private id(): number {
    return this.nextId++;
  }

  private base(id: number, name: string, o: ObjOpts): DatasetObject {
    const n = this.seq++;
    // Creation dates out of creation order (37 and 250 share no factor: every day of the 250 once), so that a
    // listing sorted by cdate differs from one in id order.
    const cdate = o.cdate ?? T0 - (300 - ((n * 37) % 250)) * DAY + ((n * 3571) % DAY);
    return {
      id,
      globalId: makeGlobalId(`object:${id}`),
      nodeId: o.nodeId ?? 1,
      channelSetId: id,
      name,
      ...(o.description === undefined ? {} : { description: o.description }),
      cdate,
      edate: o.edate ?? cdate + ((n * 7919) % (60 * DAY)),
      creatorId: o.creatorId ?? (n % 4) + 1,
      editorId: o.editorId ?? ((n + 1) % 5) + 1,
      ...(o.deleted ? { deleted: o.deleted } : {}),
      ...(o.excluded ? { excluded: true } : {}),
      ...(o.disinheritDefault ? { disinheritDefault: true } : {}),
      ...(o.disinherit ? { disinherit: o.disinherit } : {}),
      ...(o.tags ? { tags: o.tags } : {}),
    };
  }

  folder(
    mother: DatasetFolder,
    name: string,
    o: ObjOpts & { publishDir?: string; templates?: DatasetTemplate[]; withheld?: string[] } = {},
  ): DatasetFolder {
    const slug = name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const f: DatasetFolder = {
      ...this.base(this.id(), name, { description: `${name} folder`, ...o }),
      motherId: mother.id,
      publishDir: o.publishDir ?? `${mother.publishDir}${slug}/`,
      templateIds: (o.templates ?? []).map((t) => t.id),
      ...(o.withheld ? { withheldPrivileges: o.withheld } : {}),
    };
    this.ds.folders.push(f);
    return f;
  }

  file(
    folder: DatasetFolder,
    name: string,
    data: Buffer | null,
    o: ObjOpts & { niceUrl?: string; alternateUrls?: string[]; online?: boolean; forceOnline?: boolean; fileType?: string } = {},
  ): DatasetFile {
    const f: DatasetFile = {
      ...this.base(this.id(), name, o),
      folderId: folder.id,
      fileType: o.fileType ?? MEDIA_TYPES[name.split('.').pop()!.toLowerCase()] ?? 'application/octet-stream',
      data: data === null ? null : data.toString('base64'),
      ...(o.niceUrl ? { niceUrl: o.niceUrl } : {}),
      ...(o.alternateUrls ? { alternateUrls: o.alternateUrls } : {}),
      online: o.online ?? true,
      ...(o.forceOnline ? { forceOnline: true } : {}),
    };
    this.ds.files.push(f);
    return f;
  }

  image(
    folder: DatasetFolder,
    name: string,
    data: Buffer,
    sizeX: number,
    sizeY: number,
    o: ObjOpts & { online?: boolean } = {},
  ): DatasetImage {
    const img: DatasetImage = {
      ...this.base(this.id(), name, o),
      folderId: folder.id,
      fileType: MEDIA_TYPES[name.split('.').pop()!] ?? 'image/png',
      data: data.toString('base64'),
      online: o.online ?? true,
      sizeX,
      sizeY,
    };
    this.ds.images.push(img);
    return img;
  }

  template(folder: DatasetFolder, name: string, markupLanguageId: number, o: ObjOpts = {}): DatasetTemplate {
    const t: DatasetTemplate = {
      ...this.base(this.id(), name, { description: `${name} template`, ...o }),
      folderId: folder.id,
      markupLanguageId,
      source: `<html><head><title><node page.name></title></head><body><node content></body></html>`,
      templateTags: [
        { ...this.tag('content', 'richtext', { text: { stringValue: '' } }, 'TEMPLATETAG'), mandatory: true, editableInPage: true },
      ],
    };
    this.ds.templates.push(t);
    return t;
  }

  page(
    folder: DatasetFolder,
    name: string,
    template: DatasetTemplate,
    o: ObjOpts & Partial<Omit<DatasetPage, keyof DatasetObject>> = {},
  ): DatasetPage {
    const b = this.base(this.id(), name, o);
    const slug = name
      .toLowerCase()
      .normalize('NFD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '');
    const p: DatasetPage = {
      ...b,
      folderId: folder.id,
      templateId: template.id,
      fileName: o.fileName ?? `${slug}${o.language ? `.${o.language}` : ''}.html`,
      ...(o.language ? { language: o.language, contentSetId: o.contentSetId ?? b.id } : {}),
      contentId: o.contentId ?? b.id,
      priority: o.priority ?? 1,
      online: o.online ?? false,
      modified: o.modified ?? false,
      pdate: o.pdate ?? (o.online ? b.edate : 0),
      tags: [
        this.tag('content', 'richtext', { text: { stringValue: `<p>${name}: lorem ipsum dolor sit amet.</p>` } }, 'CONTENTTAG'),
        ...(o.tags ?? []),
      ],
    };
    for (const key of [
      'publisherId',
      'lockedBy',
      'lockedSince',
      'timeManagement',
      'translation',
      'niceUrl',
      'alternateUrls',
      'customCdate',
      'customEdate',
      'workflow',
    ] as const) {
      if (o[key] !== undefined) (p as unknown as Record<string, unknown>)[key] = o[key];
    }
    this.ds.pages.push(p);
    return p;
  }

  /** A tag of a construct; `values` are keyed by part keyword. */
  tag(
    name: string,
    construct: ConstructKey,
    values: Record<string, Omit<DatasetProperty, 'partId' | 'type'>>,
    type: DatasetTag['type'] = 'OBJECTTAG',
  ): DatasetTag {
    const c = CONSTRUCTS[construct];
    const properties: Record<string, DatasetProperty> = {};
    for (const part of c.parts) {
      const v = values[part.keyword];
      if (v) properties[part.keyword] = { partId: part.id, type: part.type, ...v };
    }
    return { id: this.nextTagId++, name, constructId: c.id, active: true, type, properties };
  }

  /** A localized copy of a master object in a channel: same channel set, its own id. */
  localize<T extends DatasetFolder | DatasetFile | DatasetImage | DatasetPage | DatasetTemplate>(
    list: T[],
    master: T,
    channelId: number,
    changes: Partial<T> = {},
  ): T {
    const id = this.id();
    const copy = {
      ...structuredClone(master),
      id,
      globalId: makeGlobalId(`object:${id}`),
      nodeId: channelId,
      masterId: master.id,
      ...changes,
    } as T;
    delete copy.excluded;
    delete copy.disinherit;
    delete copy.disinheritDefault;
    list.push(copy);
    return copy;
  }
}

/** The status matrix: one page per combination of online, modified, queued, planned and locked (bit 0..4). */
const STATUS_PAGES = [
  'Home',
  'About us',
  'Company profile',
  'Careers',
  'Contact',
  'Privacy policy',
  'Terms of use',
  'Products',
  'Product overview',
  'Services',
  'Consulting',
  'Support',
  'FAQ',
  'News',
  'Events',
  'Blog',
  'Team',
  'Partners',
  'Investors',
  'Press kit',
  'Sitemap',
  'Locations',
  'History',
  'Mission',
  'Sustainability',
  'Jobs in IT',
  'Jobs in Sales',
  'Newsletter',
  'Downloads',
  'Webinars',
  'Links and resources',
  'Accessibility',
];

/** The root folders of the master node and its two channels. */
interface FixtureRoots {
  root: DatasetFolder;
  shopRoot: DatasetFolder;
  partnerRoot: DatasetFolder;
}

/** The templates folder and the templates other parts of the fixture use. */
interface FixtureTemplates {
  folder: DatasetFolder;
  standard: DatasetTemplate;
  landing: DatasetTemplate;
  article: DatasetTemplate;
  rss: DatasetTemplate;
  php: DatasetTemplate;
}

/** The files and folders of the Files tree that tags elsewhere in the fixture point at. */
interface FixtureFiles {
  filesFolder: DatasetFolder;
  downloads: DatasetFolder;
  manuals: DatasetFolder;
  logo: DatasetImage;
  brochure: DatasetFile;
  report: DatasetFile;
  stylesheet: DatasetFile;
  terms: DatasetFile;
  productSheet: DatasetFile;
  manualEn: DatasetFile;
  guide: DatasetFile;
}

/** The master objects of the Multichannel folder that channels localize or reference. */
interface FixtureMultichannel {
  folder: DatasetFolder;
  inheritedA: DatasetFile;
  localizedFolder: DatasetFolder;
  localizedFile: DatasetFile;
  priceList: DatasetFile;
  bannerLocalized: DatasetImage;
  localizedPage: DatasetPage;
}

/** The master node and its two channels, each with its root folder. */
function addNodes(b: FixtureBuilder): FixtureRoots {
  const root = b.node(1, 'Corporate Website', 'www.example.com');
  const shopRoot = b.node(2, 'Shop Channel', 'shop.example.com', 1);
  const partnerRoot = b.node(3, 'Partner Channel', 'partner.example.com', 1);
  return { root, shopRoot, partnerRoot };
}

/** Templates live in their own folder and are linked into the folders that use them. */
function addTemplates(b: FixtureBuilder, { root, shopRoot, partnerRoot }: FixtureRoots): FixtureTemplates {
  const templates = b.folder(root, 'Templates', { publishDir: '/templates/' });
  const standard = b.template(templates, 'Standard page', 1);
  const landing = b.template(templates, 'Landing page', 1);
  const article = b.template(templates, 'News article', 1);
  const rss = b.template(templates, 'RSS feed', 3);
  const php = b.template(templates, 'PHP include', 2);
  const legacy = b.template(templates, 'Legacy layout', 4);
  templates.templateIds = [standard, landing, article, rss, php, legacy].map((t) => t.id);
  root.templateIds = [standard.id];
  shopRoot.templateIds = [standard.id];
  partnerRoot.templateIds = [standard.id];
  return { folder: templates, standard, landing, article, rss, php };
}

/** Files: online/offline, broken, nice and alternate URLs, used and unused, images. */
function addFiles(b: FixtureBuilder, root: DatasetFolder, standard: DatasetTemplate): FixtureFiles {
  const filesFolder = b.folder(root, 'Files', { templates: [standard] });
  const imagesFolder = b.folder(filesFolder, 'Images');
  const logo = b.image(imagesFolder, 'logo.png', PNG_1X1, 1, 1);
  b.image(imagesFolder, 'banner.jpg', jpeg(1), 1200, 300);
  b.image(imagesFolder, 'icon.gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 16, 16);
  b.image(imagesFolder, 'photo-unused.jpg', jpeg(2), 800, 600, { online: false });
  const brochure = b.file(filesFolder, 'brochure.pdf', pdf('Brochure'), {
    niceUrl: '/downloads/brochure',
    alternateUrls: ['/brochure.pdf', '/alt/brochure', '/Brochure-2023'],
  });
  const report = b.file(filesFolder, 'annual-report-2023.pdf', pdf('Annual report 2023'), { niceUrl: '/reports/2023' });
  const stylesheet = b.file(filesFolder, 'stylesheet.css', Buffer.from('body { font-family: sans-serif; }\n'));
  const terms = b.file(filesFolder, 'terms.txt', Buffer.from('Terms and conditions\r\n1. Scope\r\n'));
  b.file(filesFolder, 'notes.txt', Buffer.from('internal notes\n'), { online: false, description: 'Unused scratch notes' });
  b.file(filesFolder, 'missing-binary.pdf', null, { description: 'The binary data of this file is missing' });
  b.file(filesFolder, 'draft.docx', Buffer.from('PK\x03\x04draft', 'latin1'), { online: false });
  b.file(filesFolder, 'forced.txt', Buffer.from('always online\n'), { forceOnline: true });
  b.file(filesFolder, 'data.csv', Buffer.from('id;name\n1;Alpha\n2;Beta\n'), { niceUrl: '/data/export.csv' });
  b.file(filesFolder, 'README.md', Buffer.from('# Files\nShared downloads.\n'));
  b.file(filesFolder, 'archive.zip', Buffer.from('PK\x05\x06\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0', 'latin1'), { online: false });
  b.file(filesFolder, 'Alpha.txt', Buffer.from('alpha\n'));
  b.file(filesFolder, 'beta.txt', Buffer.from('beta beta\n'));
  b.file(filesFolder, 'Gamma.TXT', Buffer.from('gamma gamma gamma\n'));
  b.file(filesFolder, 'empty.txt', Buffer.alloc(0));
  b.file(filesFolder, 'binary.dat', Buffer.from([0, 1, 2, 0xff, 0xfe, 0x0d, 0x0a, 0x2d, 0x2d, 0]), {
    fileType: 'application/octet-stream',
  });
  const productSheet = b.file(filesFolder, 'product-sheet.pdf', pdf('Product sheet'), { niceUrl: '/products/sheet' });
  const downloads = b.folder(filesFolder, 'Downloads');
  // Edited after Bulk, though made before it: siblings whose order by edate is not their order by cdate, so that a sort by
  // one date that gives the other's order shows (SRT-04).
  downloads.edate = downloads.cdate + 20 * DAY;
  const manuals = b.folder(downloads, 'Manuals');
  const manualEn = b.file(downloads, 'manual-en.pdf', pdf('Manual'), { niceUrl: '/downloads/manual-en' });
  b.file(downloads, 'manual-de.pdf', pdf('Handbuch'), { niceUrl: '/downloads/handbuch' });
  b.file(downloads, 'installer.zip', Buffer.from('PK\x03\x04installer', 'latin1'));
  const guide = b.file(manuals, 'guide.pdf', pdf('Guide'));
  b.file(manuals, 'quickstart.txt', Buffer.from('Quick start\n'), { online: false });
  const bulk = b.folder(filesFolder, 'Bulk', { description: 'More than 100 files, for default page sizes' });
  for (let i = 1; i <= 120; i++)
    b.file(bulk, `bulk-${String(i).padStart(3, '0')}.txt`, Buffer.from(`bulk file ${i}\n`.repeat((i % 7) + 1)));
  return { filesFolder, downloads, manuals, logo, brochure, report, stylesheet, terms, productSheet, manualEn, guide };
}

/** Object tags referencing files make usage queries and the `used` filter answerable. */
function tagFileUsages(b: FixtureBuilder, f: FixtureFiles, standard: DatasetTemplate): void {
  f.filesFolder.tags = [
    b.tag('object.teaser', 'filelink', { file: { fileId: f.brochure.id } }),
    b.tag('object.logo', 'image', { image: { imageId: f.logo.id } }),
  ];
  f.manuals.tags = [b.tag('object.download', 'filelink', { file: { fileId: f.guide.id } })];
  f.downloads.tags = [b.tag('object.download', 'filelink', { file: { fileId: f.manualEn.id } })];
  standard.tags = [b.tag('object.stylesheet', 'filelink', { file: { fileId: f.stylesheet.id } })];
}

/** One page per STATUS_PAGES entry; the bits of its index choose the status, so every combination exists. */
function addStatusPages(b: FixtureBuilder, pagesFolder: DatasetFolder, t: FixtureTemplates): (name: string) => DatasetPage {
  const { standard, landing, article, rss, php } = t;
  const tmplByIndex = [standard, landing, article, standard, php];
  const pageByName = new Map<string, DatasetPage>();
  STATUS_PAGES.forEach((name, i) => {
    const online = (i & 1) !== 0;
    const modified = (i & 2) !== 0;
    const queued = (i & 4) !== 0;
    const planned = (i & 8) !== 0;
    const locked = (i & 16) !== 0;
    const tm: DatasetTimeManagement = {};
    if (planned) tm[online ? 'offlineAt' : 'at'] = FUTURE + i * 3600;
    if (queued) tm[online ? 'queuedOffline' : 'queuedPublish'] = { at: FUTURE + i * 7200, userId: 2 };
    const published = online || modified;
    const p = b.page(pagesFolder, name, name === 'Sitemap' ? rss : tmplByIndex[i % tmplByIndex.length]!, {
      language: name === 'Sitemap' ? undefined : 'en',
      online,
      modified,
      priority: (i % 5) + 1,
      pdate: published ? T0 - (40 - i) * DAY : 0,
      ...(published ? { publisherId: (i % 3) + 1 } : {}),
      ...(locked ? { lockedBy: i % 2 === 0 ? 1 : 2, lockedSince: T0 + i * 60 } : {}),
      ...(planned || queued ? { timeManagement: tm } : {}),
    });
    pageByName.set(name, p);
  });
  return (name: string) => pageByName.get(name)!;
}

/** Nice URLs, file usages, custom dates, workflows and links on selected status pages. */
function decorateStatusPages(b: FixtureBuilder, page: (name: string) => DatasetPage, f: FixtureFiles): void {
  page('Products').niceUrl = '/products';
  // Stored in neither order nor its reverse: a server that reverses them, or sorts them the wrong way round, shows it.
  page('Products').alternateUrls = ['/produkte', '/Alt-products', '/angebot'];
  page('Contact').niceUrl = '/contact';
  page('Contact').alternateUrls = ['/kontakt'];
  page('Company profile').tags!.push(b.tag('object.download', 'filelink', { file: { fileId: f.report.id } }));
  page('Product overview').tags!.push(b.tag('object.manual', 'filelink', { file: { fileId: f.manualEn.id } }));
  page('Products').tags!.push(b.tag('object.datasheet', 'filelink', { file: { fileId: f.productSheet.id } }));
  page('About us').customCdate = T0 - 1000 * DAY;
  page('About us').customEdate = T0 - 10 * DAY;
  page('Newsletter').workflow = { userId: 1, groupIds: [2], message: 'Please review the newsletter', modified: true, timestamp: T0 - DAY };
  page('Blog').workflow = { userId: 2, groupIds: [1], message: 'Ready for approval', modified: false, timestamp: T0 - 2 * DAY };
  const links = page('Links and resources');
  links.tags!.push(
    b.tag('link1', 'link', { url: { stringValue: 'https://www.gentics.com/' }, text: { stringValue: 'Gentics' } }, 'CONTENTTAG'),
    b.tag('link2', 'link', { url: { stringValue: 'http://example.org/partners' }, text: { stringValue: 'Partners' } }, 'CONTENTTAG'),
    b.tag('link3', 'link', { url: { pageId: page('Contact').id }, text: { stringValue: 'Contact us' } }, 'CONTENTTAG'),
    b.tag('link4', 'link', { url: { stringValue: 'ftp://files.example.com/pub' }, text: { stringValue: 'FTP' } }, 'CONTENTTAG'),
    b.tag('object.related', 'link', { url: { stringValue: 'https://docs.example.com/related' } }),
  );
  page('Partners').tags!.push(b.tag('partnerlink', 'link', { url: { stringValue: 'https://partner.example.net/' } }, 'CONTENTTAG'));
}

/** Language variants and translations: en master, de in sync, fr out of sync; a de-only page. */
function addTranslations(b: FixtureBuilder, pagesFolder: DatasetFolder, page: (name: string) => DatasetPage, t: FixtureTemplates): void {
  const { standard, landing } = t;
  const overview = page('Product overview');
  b.page(pagesFolder, 'Produktübersicht', standard, {
    language: 'de',
    contentSetId: overview.id,
    online: true,
    pdate: T0 - 5 * DAY,
    publisherId: 4,
    translation: { masterPageId: overview.id, inSync: true },
    creatorId: 4,
  });
  b.page(pagesFolder, 'Aperçu des produits', standard, {
    language: 'fr',
    contentSetId: overview.id,
    translation: { masterPageId: overview.id, inSync: false },
    creatorId: 4,
  });
  b.page(pagesFolder, 'Kontakt', standard, {
    language: 'de',
    contentSetId: page('Contact').id,
    online: true,
    pdate: T0 - 3 * DAY,
    publisherId: 4,
    translation: { masterPageId: page('Contact').id, inSync: false },
  });
  b.page(pagesFolder, 'Impressum', standard, { language: 'de', online: true, pdate: T0 - 30 * DAY, publisherId: 1 });
  b.page(pagesFolder, 'Home print version', landing, { language: 'en', contentId: page('Home').id, description: 'Page variant of Home' });
  b.page(pagesFolder, 'Retired page', standard, { language: 'en', deleted: { at: T0 - 7 * DAY, by: 2 } });
}

/** Pages below the top level of the Pages folder, some with a link to an external source. */
function addArchivePages(
  b: FixtureBuilder,
  archive: DatasetFolder,
  archive2022: DatasetFolder,
  press: DatasetFolder,
  t: FixtureTemplates,
): void {
  const { standard, article } = t;
  b.page(archive, 'Archived news', article, { language: 'en', online: true, pdate: T0 - 200 * DAY, publisherId: 5 });
  b.page(archive2022, 'Year in review 2022', article, {
    language: 'en',
    online: true,
    pdate: T0 - 300 * DAY,
    publisherId: 5,
    tags: [b.tag('source', 'link', { url: { stringValue: 'https://news.example.com/2022/review' } }, 'CONTENTTAG')],
  });
  b.page(press, 'Press release 2023', article, {
    language: 'en',
    online: true,
    pdate: T0 - 20 * DAY,
    publisherId: 5,
    tags: [b.tag('source', 'link', { url: { stringValue: 'https://news.example.com/2023' } }, 'CONTENTTAG')],
  });
  b.page(press, 'Media contacts', standard, { language: 'en' });
}

/** Pages: the status matrix, languages and translations, time management, nice URLs, tags, links. */
function addPages(
  b: FixtureBuilder,
  root: DatasetFolder,
  t: FixtureTemplates,
  f: FixtureFiles,
): { pagesFolder: DatasetFolder; overview: DatasetPage } {
  const { standard, landing, article, rss, php } = t;
  const pagesFolder = b.folder(root, 'Pages', { templates: [standard, landing, article, rss, php] });
  const archive = b.folder(pagesFolder, 'Archive', { templates: [standard, article] });
  // Privileges the requesting user lacks on two folders of pages, so that the getPages permission filter has pages to drop.
  const archive2022 = b.folder(archive, '2022', { templates: [article], withheld: ['deletetemplates'] });
  const press = b.folder(pagesFolder, 'Press', { templates: [article, standard], withheld: ['updateform', 'deletetemplates'] });
  const page = addStatusPages(b, pagesFolder, t);
  decorateStatusPages(b, page, f);
  addTranslations(b, pagesFolder, page, t);
  addArchivePages(b, archive, archive2022, press, t);
  return { pagesFolder, overview: page('Product overview') };
}

/** Multichannelling: inherited, localized, local, excluded and disinherited objects. */
function addMultichannelMasters(b: FixtureBuilder, root: DatasetFolder, standard: DatasetTemplate): FixtureMultichannel {
  const mc = b.folder(root, 'Multichannel', { templates: [standard] });
  const inheritedFolder = b.folder(mc, 'Inherited folder');
  const inheritedA = b.file(inheritedFolder, 'inherited-a.txt', Buffer.from('inherited A\n'));
  b.file(inheritedFolder, 'inherited-b.txt', Buffer.from('inherited B\n'));
  const localizedFolder = b.folder(mc, 'Localized folder');
  b.file(localizedFolder, 'in-localized-folder.txt', Buffer.from('file in a localized folder\n'));
  const masterOnly = b.folder(mc, 'Master only', { excluded: true });
  b.file(masterOnly, 'master-secret.txt', Buffer.from('master only\n'));
  const notForPartners = b.folder(mc, 'Not for partners', { disinherit: [3] });
  b.file(notForPartners, 'shop-and-master.txt', Buffer.from('not for partners\n'));
  b.folder(mc, 'Default disinherited', { disinheritDefault: true });
  b.file(mc, 'inherited.txt', Buffer.from('inherited everywhere\n'));
  const localizedFile = b.file(mc, 'localized.txt', Buffer.from('master version\n'));
  b.file(mc, 'excluded.txt', Buffer.from('master only file\n'), { excluded: true });
  b.file(mc, 'shop-excluded.txt', Buffer.from('not in the shop\n'), { disinherit: [2] });
  b.file(mc, 'partner-excluded.txt', Buffer.from('not for partners\n'), { disinherit: [3] });
  const priceList = b.file(mc, 'price-list.pdf', pdf('Price list'), { description: 'Used by the shop channel only' });
  const bannerLocalized = b.image(mc, 'banner-localized.jpg', jpeg(3), 600, 200);
  b.page(mc, 'Multichannel overview', standard, { language: 'en', online: true, pdate: T0 - 50 * DAY, publisherId: 1 });
  const localizedPage = b.page(mc, 'Localized page', standard, { language: 'en', online: true, pdate: T0 - 45 * DAY, publisherId: 1 });
  return { folder: mc, inheritedA, localizedFolder, localizedFile, priceList, bannerLocalized, localizedPage };
}

/** Channel copies of master objects, so that channel views differ from the master's. */
function localizeInChannels(b: FixtureBuilder, m: FixtureMultichannel, standard: DatasetTemplate): void {
  const ds = b.ds;
  b.localize(ds.folders, m.localizedFolder, 2, { description: 'Shop version of the localized folder' });
  b.localize(ds.files, m.localizedFile, 2, {
    data: Buffer.from('shop version\n').toString('base64'),
    description: 'Localized in the shop',
  });
  b.localize(ds.images, m.bannerLocalized, 2, { data: jpeg(4).toString('base64'), sizeX: 640 });
  b.localize(ds.pages, m.localizedPage, 2, { description: 'Shop version' });
  b.localize(ds.templates, standard, 2, { description: 'Shop variant of the standard page' });
  b.localize(ds.files, m.inheritedA, 3, { data: Buffer.from('partner version of A\n').toString('base64') });
}

/** Product sheet references pages, files and images (syncable objects). */
function tagProductSheet(b: FixtureBuilder, f: FixtureFiles, overview: DatasetPage): void {
  f.productSheet.tags = [
    b.tag('object.image', 'image', { image: { imageId: f.logo.id } }),
    b.tag('object.page', 'link', { url: { pageId: overview.id } }),
    b.tag('object.terms', 'filelink', { file: { fileId: f.terms.id } }),
  ];
}

/** Objects local to one channel, which neither the master nor the other channel sees. */
function addChannelLocalObjects(b: FixtureBuilder, roots: FixtureRoots, t: FixtureTemplates, m: FixtureMultichannel): void {
  const { standard } = t;
  const shopSpecials = b.folder(roots.shopRoot, 'Shop specials', { nodeId: 2, publishDir: '/specials/' });
  const shopLayout = b.template(t.folder, 'Shop layout', 1, { nodeId: 2 });
  shopSpecials.templateIds = [standard.id, shopLayout.id];
  b.file(shopSpecials, 'shop-flyer.pdf', pdf('Shop flyer'), { nodeId: 2 });
  b.file(shopSpecials, 'specials.txt', Buffer.from('specials\n'), { nodeId: 2 });
  b.page(shopSpecials, 'Summer sale', standard, {
    nodeId: 2,
    language: 'en',
    online: true,
    pdate: T0 - 15 * DAY,
    publisherId: 3,
    tags: [b.tag('object.pricelist', 'filelink', { file: { fileId: m.priceList.id } })],
  });
  b.file(m.folder, 'shop-only.txt', Buffer.from('local to the shop\n'), { nodeId: 2 });
  const partnerNews = b.folder(roots.partnerRoot, 'Partner news', { nodeId: 3, publishDir: '/partner-news/', templates: [standard] });
  b.page(partnerNews, 'Partner announcement', standard, { nodeId: 3, language: 'en' });
  b.image(partnerNews, 'partner-logo.png', PNG_1X1, 1, 1, { nodeId: 3 });
}

/** A master file referring to an image the shop localized: syncableObjects' srcNodeId decides whose version it reports. */
function addShopTeaser(b: FixtureBuilder, m: FixtureMultichannel): void {
  const teaser = b.file(m.folder, 'shop-teaser.txt', Buffer.from('teaser\n'), { description: 'Shows the localized banner' });
  teaser.tags = [b.tag('object.banner', 'image', { image: { imageId: m.bannerLocalized.id } })];
}

/** Wastebin: a deleted folder (everything in it deleted with it), a deleted file, a live file. */
function addWastebin(b: FixtureBuilder, root: DatasetFolder, landing: DatasetTemplate): void {
  const wastebin = b.folder(root, 'Wastebin');
  const deletedAt = { at: T0 - 14 * DAY, by: 2 };
  const oldCampaign = b.folder(wastebin, 'Old campaign', { deleted: deletedAt });
  b.file(oldCampaign, 'campaign-flyer.pdf', pdf('Campaign'), { deleted: deletedAt });
  b.image(oldCampaign, 'campaign-banner.png', PNG_1X1, 1, 1, { deleted: deletedAt });
  const assets = b.folder(oldCampaign, 'Assets', { deleted: deletedAt });
  b.file(assets, 'asset.txt', Buffer.from('asset\n'), { deleted: deletedAt });
  b.page(oldCampaign, 'Campaign landing', landing, { language: 'en', deleted: deletedAt });
  b.file(wastebin, 'outdated-price-list.pdf', pdf('Outdated'), { deleted: { at: T0 - 3 * DAY, by: 1 } });
  b.file(wastebin, 'keep-me.txt', Buffer.from('still here\n'));
}

/** The deterministic default fixture: every requirement of the catalogue has data to work on. */
export function defaultDataset(): Dataset {
  return defaultBuilder().ds;
}

/** The builder of the default fixture, built: server/varied-dataset.ts adds to it what the default data keeps constant. */
export function defaultBuilder(): FixtureBuilder {
  const b = new FixtureBuilder();
  // The builders hand out ids in call order: reordering these calls changes every id after the change.
  const roots = addNodes(b);
  const templates = addTemplates(b, roots);
  const sandbox = b.folder(roots.root, 'Sandbox', { description: 'Conformance suite sandbox parent', templates: [templates.standard] });
  const files = addFiles(b, roots.root, templates.standard);
  tagFileUsages(b, files, templates.standard);
  // A template linked into a sub-folder and not into its mother: getTemplates with recursive lists it, without recursive not.
  files.downloads.templateIds = [templates.article.id];
  const { pagesFolder, overview } = addPages(b, roots.root, templates, files);
  const multichannel = addMultichannelMasters(b, roots.root, templates.standard);
  localizeInChannels(b, multichannel, templates.standard);
  tagProductSheet(b, files, overview);
  addChannelLocalObjects(b, roots, templates, multichannel);
  addWastebin(b, roots.root, templates.landing);
  addShopTeaser(b, multichannel);
  // A tag on a folder the target file names, for folder load's construct; added after every earlier tag, so that no earlier tag id moved.
  sandbox.tags = [b.tag('object.note', 'richtext', { text: { stringValue: 'Content created here is removed after the run' } })];
  // A content set stored German first: a language fallback that keeps the first stored variant, not the node's highest-priority
  // language, differs from the sets stored English first.
  const press = b.ds.folders.find((f) => f.name === 'Press' && f.motherId === pagesFolder.id)!;
  const jobs = b.page(press, 'Stellenangebote', templates.standard, { language: 'de' });
  b.page(press, 'Job offers', templates.standard, { language: 'en', contentSetId: jobs.id });
  // Links that reach no syncable object, added last so that no earlier tag id moves: the product sheet links a deleted page
  // (WST-01: absent from every listing), and the Product overview page it links links a folder (contract 4.3: "Linked
  // objects are pages, files and images").
  const retired = b.ds.pages.find((p) => p.name === 'Retired page')!;
  files.productSheet.tags!.push(b.tag('object.retired', 'link', { url: { pageId: retired.id } }));
  overview.tags!.push(b.tag('object.folder', 'folderlink', { folder: { folderId: files.downloads.id } }));
  // The annual report used by a folder and a file as well as a page, so that the target file can name a user of each kind.
  const profile = b.ds.pages.find((p) => p.name === 'Company profile')!;
  files.filesFolder.tags!.push(b.tag('object.report', 'filelink', { file: { fileId: files.report.id } }));
  files.guide.tags = [b.tag('object.report', 'filelink', { file: { fileId: files.report.id } })];
  // A third file user, whose name sorts before the other two and whose cdate and edate fall between theirs: usage/file
  // of the used files then answers another order for each sortby (USE-03).
  const readme = b.ds.files.find((f) => f.name === 'README.md' && f.folderId === files.filesFolder.id)!;
  readme.tags = [b.tag('object.report', 'filelink', { file: { fileId: files.report.id } })];
  // A staging package holding the pages folder and its press folder (folder load with package answers included for them).
  b.ds.stagingPackages = [{ name: 'Spring campaign', objectIds: [pagesFolder.id, press.id] }];
  b.ds.roles = {
    stagingPackage: { name: 'Spring campaign', folderIds: [pagesFolder.id, press.id] },
    channelNodeId: 2,
    sandboxParentFolderId: sandbox.id,
    pagesFolderId: pagesFolder.id,
    templatesFolderId: templates.folder.id,
    // The first used file getFiles lists by name, so init declares the same one.
    usedFileId: files.report.id,
    usedFileUsers: { files: [files.guide.id], folders: [files.filesFolder.id], pages: [profile.id] },
  };
  return b;
}
