/**
 * Semantic planted faults of the reference server: small, realistic deviations from one requirement
 * each, off by default, switched on by name (`serve --fault NAME`) so the suite can prove that the
 * named requirements catch them. The handlers ask `ctx.faults.has(name)`.
 */
import { faultDefs } from './fault-def.ts';

/** Every semantic fault, with the requirement ids it breaks. */
export const semanticFaults = faultDefs([
  // Paging and sorting
  {
    name: 'paging-numitems-after-slice',
    breaks: ['PAG-05'],
    description: 'numItems counts the returned slice instead of all matching items',
  },
  { name: 'pagesize-zero-returns-all', breaks: ['PAG-02'], description: 'Group P pageSize=0 returns every item instead of none' },
  {
    name: 'paging-page-zero-based',
    breaks: ['PAG-03', 'PAG-04'],
    description: 'Group P page numbers start at 0, so page=1 skips the first page',
  },
  { name: 'skipcount-ignored', breaks: ['PAG-07'], description: 'Group L skipCount is ignored' },
  {
    name: 'ispublisher-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ispublisher=true lists every page, not only those the requesting user published last',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { recursive: true, ispublisher: true } },
  },
  {
    name: 'iscreator-ignored',
    breaks: ['FLT-04'],
    description: "iscreator=true lists every object, not only the requesting user's",
    probe: { op: 'folder.getFolders', folder: 'Multichannel', query: { recursive: true, iscreator: true } },
  },
  {
    name: 'iseditor-ignored',
    breaks: ['FLT-04'],
    description: 'iseditor=true lists every object, not only those the requesting user edited last',
    probe: { op: 'folder.getFolders', folder: 'Multichannel', query: { recursive: true, iseditor: true } },
  },
  {
    name: 'creatorid-ignored',
    breaks: ['FLT-04'],
    description: 'creatorId is ignored: the listings keep the objects of every creator',
    probe: { op: 'folder.getFiles', folder: 'Files', query: { creatorId: 1 } },
  },
  {
    name: 'editorid-ignored',
    breaks: ['FLT-04'],
    description: 'editorId is ignored: the listings keep the objects of every last editor',
    probe: { op: 'folder.getFiles', folder: 'Files', query: { editorId: 5 } },
  },
  {
    name: 'pages-templates-search-ignored',
    breaks: ['FLT-01'],
    description: 'getPages and getTemplates ignore search (only the file and folder lists apply it)',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { recursive: true, search: 'press' } },
  },
  {
    name: 'getpages-niceurl-ignored',
    breaks: ['FLT-08'],
    description: 'getPages ignores niceurl (only the file lists apply it)',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { niceurl: '^/products$' } },
  },
  {
    name: 'pages-templates-nodeid-ignored',
    needs: 'multichannelling',
    breaks: ['FLT-05'],
    description: "getPages and getTemplates answer the master's view whatever nodeId names",
    probe: { op: 'folder.getPages', folder: 'Multichannel', query: { nodeId: 2 } },
  },
  {
    name: 'pages-templates-inherited-ignored',
    needs: 'multichannelling',
    breaks: ['FLT-05'],
    description: 'getPages and getTemplates ignore inherited and list inherited and local objects alike',
    probe: { op: 'folder.getPages', folder: 'Multichannel', query: { nodeId: 2, inherited: true } },
  },
  {
    name: 'gettemplates-recursive-ignored',
    breaks: ['FLD-08'],
    description: 'getTemplates ignores recursive and lists the templates linked into the folder itself only',
    probe: { op: 'folder.getTemplates', folder: 'Pages', query: { recursive: true } },
  },
  {
    name: 'find-skipcount-ignored',
    breaks: ['PAG-07'],
    description: 'findFiles and findPages ignore skipCount and answer from the first match',
    probe: { op: 'folder.findFiles', folder: 'Bulk', query: { skipCount: 5, maxItems: 1 } },
  },
  {
    name: 'count-inherited-ignored',
    needs: 'multichannelling',
    breaks: ['FLD-06'],
    description: 'folder count ignores inherited and counts inherited and local objects alike',
    probe: { op: 'folder.count', folder: 'Multichannel', query: { nodeId: 2, inherited: false } },
  },
  {
    name: 'file-lists-folder-ignored',
    breaks: ['FIL-05'],
    description: 'getFiles and GET /file ignore folder=true and add no folder to the files',
    probe: { op: 'folder.getFiles', folder: 'Files', query: { folder: true } },
  },
  {
    name: 'template-id-copy-ignored',
    needs: 'multichannelling',
    breaks: ['FLT-09'],
    description: "getPages template_id given a channel's localized copy of a template lists none of the pages that name it",
  },
  {
    name: 'syncable-dependencies-dropped',
    needs: 'multichannelling',
    breaks: ['USE-04'],
    description: 'syncableObjects reports no indirect dependencies: what the linked pages and files link in turn is missing',
  },
  {
    name: 'copied-tag-ids-lost',
    breaks: ['FIL-01'],
    description: 'a copied file carries its tags without ids (null in JSON)',
  },
  {
    name: 'syncable-folder-links-followed',
    needs: 'multichannelling',
    breaks: ['USE-04'],
    description: 'syncableObjects follows folder links too: a folder that a linked page links is named in dependencies',
  },
  {
    name: 'syncable-deleted-links-followed',
    needs: 'multichannelling',
    breaks: ['WST-01'],
    description: 'syncableObjects lists a deleted page that a given file links',
  },
  {
    name: 'syncable-dependencies-flag-set',
    needs: 'multichannelling',
    breaks: ['USE-04'],
    description: 'syncableObjects says haveDependencies true whatever it lists, also for a file that links nothing',
  },
  {
    name: 'syncable-shared-links-repeated',
    needs: 'multichannelling',
    breaks: ['USE-04'],
    description: 'syncableObjects lists an object once for each given file that links it',
  },
  {
    name: 'usage-finds-no-users',
    breaks: ['USE-01'],
    description:
      'usage/file, usage/folder and usage/page list no user of any file (total 0): only a declared used file tells it from data without usage',
  },
  {
    name: 'usage-file-finds-no-files',
    breaks: ['USE-01'],
    description:
      'usage/file lists no user of any file while usage/folder and usage/page still do: only users declared by kind tell it from data without file users',
  },
  {
    name: 'usedin-unknown-500',
    breaks: ['ENV-08'],
    description: 'a usedIn value naming no node escapes as a 500 FAILURE instead of being ignored or refused',
  },
  {
    name: 'copy-globalid-500',
    breaks: ['ENV-08'],
    description: 'a copy whose file is named by its globalId alone escapes as a 500 FAILURE',
  },
  {
    name: 'sortby-size-broken-500',
    breaks: ['SRT-03'],
    description: 'a Group L listing with sortby=size (no value of the contract) holding a broken file escapes as a 500 FAILURE',
  },
  {
    name: 'deleted-folder-takes-content',
    breaks: ['FLD-01', 'FIL-02'],
    needs: 'wastebin',
    description: 'a folder created under a deleted folder, or a file moved into one, is answered OK and lands in the wastebin unlisted',
  },
  {
    name: 'copy-dated-in-milliseconds',
    breaks: ['FIL-01'],
    description: "a copy's cdate and edate are in milliseconds while every other timestamp is in seconds",
  },
  {
    name: 'q-reads-publishdir-of-pages',
    breaks: ['ENV-08'],
    needs: 'pages',
    description: 'q on getItems, getPages or getTemplates reads a publish directory of pages and templates, and escapes as a 500 FAILURE',
  },
  {
    name: 'tree-without-recursive-nests',
    breaks: ['FLD-03'],
    description:
      'tree=true without recursive nests every listed folder\'s sub-folders, where tree is "meaningful only when recursive is true"',
    probe: { op: 'folder.getFolders', folder: 'Multichannel', query: { tree: true } },
  },
  {
    name: 'copy-uses-nothing',
    breaks: ['USE-01'],
    description: 'a copy keeps the object tags of its source, but the usage lists of the files they name leave the copy out',
  },
  {
    name: 'templates-use-nothing',
    breaks: ['USE-05'],
    needs: 'templates',
    description: "a file only a template's object tag refers to is listed by used=false, not used=true",
    probe: { op: 'folder.getFiles', folder: 'Files', query: { used: true } },
  },
  {
    name: 'push-leaves-master-unused',
    needs: 'multichannelling',
    breaks: ['USE-01'],
    description: 'after a push2master of a localized copy the master, though its tags name the same files, uses none of them',
  },
  {
    name: 'counts-only-more-items',
    breaks: ['USE-02'],
    description: 'a usage answer with files=false (counts only) says hasMoreItems true, also where nothing uses the file',
  },
  {
    name: 'deleted-marks-folder-only',
    breaks: ['WST-03'],
    needs: 'wastebin',
    description: 'a folder delete marks the folder alone: wastebin=only of a sub-folder inside it, named by id, lists nothing',
  },
  {
    name: 'localizationinfo-without-templates',
    breaks: ['MCH-08'],
    needs: 'multichannelling',
    description: 'folder localizationinfo counts no template, also where the folder holds and links some',
    probe: { op: 'folder.localizationinfo', folder: 'Templates', query: { nodeId: 1 } },
  },
  {
    name: 'templates-always-unique',
    breaks: ['FLD-06'],
    needs: 'templates',
    description: 'a recursive getTemplates lists each template once, as with reduce, while a recursive count counts every link',
    probe: { op: 'folder.getTemplates', folder: 'Pages', query: { recursive: true } },
  },
  {
    name: 'overwrite-by-default',
    breaks: ['UPL-05'],
    description: 'an upload that does not ask to overwrite replaces the file of its name in the folder, content lost',
  },
  {
    name: 'overwrite-drops-description',
    breaks: ['UPL-05'],
    description: 'a file replaced by an overwrite naming no description is left without one, and a search over its folder answers 500',
  },
  {
    name: 'overwrite-keeps-description',
    breaks: ['UPL-05'],
    description: 'a file replaced by an overwrite that gives a description keeps its old one',
  },
  {
    name: 'multipart-part-filename-ignored',
    breaks: ['UPL-01'],
    description: "a multipart create does not read the data part's filename: a file named there alone gets the default name",
  },
  {
    name: 'media-type-inherited-member',
    breaks: ['UPL-03'],
    description: 'a raw createSimple of a qqfile ending in .__proto__ stores Object.prototype as the fileType, answered as {}',
  },
  {
    name: 'upload-duplicates-name',
    breaks: ['UPL-05'],
    description: 'an upload that does not overwrite, of a name the folder holds, makes a second file of that same name',
  },
  {
    name: 'save-multipart-drops-description',
    breaks: ['UPL-06'],
    description: 'a multipart save without a description part leaves the file without one, and a search over its folder answers 500',
  },
  {
    name: 'url-create-urls-dropped',
    breaks: ['UPL-02a'],
    description: 'a JSON create leaves the niceURL and alternateURLs it is sent unread: no filter finds the file by them',
  },
  {
    name: 'copy-without-target-500',
    breaks: ['FIL-01', 'ENV-08'],
    description: 'a copy without targetFolder escapes as a 500 FAILURE instead of going into the source folder or being refused',
  },
  {
    name: 'usedin-ignored',
    needs: 'multichannelling',
    breaks: ['USE-05'],
    description: 'used ignores usedIn and checks the current channel alone',
    probe: { op: 'folder.getFiles', folder: 'Multichannel', query: { used: true, usedIn: 2 } },
  },
  {
    name: 'getfolders-post-user-filters-ignored',
    breaks: ['FLD-04'],
    description: 'POST getFolders ignores the creator and editor members',
  },
  {
    name: 'getfolders-post-date-filters-partial',
    breaks: ['FLD-04'],
    description: 'POST getFolders reads createdBefore alone of the date members: createdSince, editedBefore and editedSince are ignored',
  },
  {
    name: 'getfolders-post-sort-ignored',
    breaks: ['FLD-04'],
    description: 'POST getFolders ignores sortBy and sortOrder and answers in the default order',
  },
  {
    name: 'getfolders-post-recursiveids-ignored',
    breaks: ['FLD-04'],
    description: "POST getFolders ignores recursiveIds and fetches every folder's children",
  },
  {
    name: 'folder-create-metadata-dropped',
    breaks: ['FLD-01'],
    description: 'folder create ignores description, nameI18n, descriptionI18n and publishDirI18n',
  },
  {
    name: 'folder-create-publishdir-derived',
    breaks: ['FLD-01'],
    description: "folder create ignores publishDir and derives the directory from the mother's and the name",
  },
  {
    name: 'url-create-metadata-dropped',
    needs: 'sourceUrl',
    breaks: ['UPL-02a'],
    description: 'a JSON create ignores description, niceURL and alternateURLs',
  },
  {
    name: 'source-error-stored',
    needs: 'sourceUrl',
    breaks: ['UPL-02a'],
    description: 'a JSON create whose sourceURL answers 404 creates the file from the error page instead of refusing',
  },
  {
    name: 'source-no-content-filled',
    needs: 'sourceUrl',
    breaks: ['UPL-02a'],
    description: 'a JSON create whose sourceURL answers 204 No Content stores the status line as the file instead of nothing',
  },
  {
    name: 'url-create-overwrite-ignored',
    needs: 'sourceUrl',
    breaks: ['UPL-05'],
    description: 'a JSON create ignores overwriteExisting and gives a file of the same name a renamed sibling',
  },
  {
    name: 'createsimple-description-ignored',
    breaks: ['UPL-03', 'UPL-04'],
    description: 'createSimple ignores its description query parameter',
  },
  { name: 'findfiles-default-maxitems-10', breaks: ['PAG-08'], description: 'findFiles returns 10 items by default instead of 100' },
  { name: 'sortorder-desc-ignored', breaks: ['SRT-02', 'SRT-04'], description: 'descending order (sortorder=desc, sort=-attr) is ignored' },
  { name: 'name-sort-ignored', breaks: ['SRT-01', 'SRT-04'], description: 'sorting by name (the default) leaves lists in id order' },
  {
    name: 'unpaged-honours-page',
    breaks: ['PAG-01'],
    description: 'Group P without pageSize treats the whole list as one page, so page=2 and later return no items',
  },
  {
    name: 'getfiles-default-maxitems-100',
    breaks: ['PAG-06'],
    description: "getFiles without maxItems returns the first 100 files (findFiles' default) instead of all",
  },
  {
    name: 'getpages-default-maxitems-25',
    breaks: ['PAG-09'],
    description: 'getPages without maxItems returns the first 25 pages instead of all',
  },
  { name: 'sortby-edate-ignored', breaks: ['SRT-03'], description: 'Group L sortby=edate is taken as unknown: the listing comes by name' },
  {
    name: 'sortby-masternode-ignored',
    needs: 'multichannelling',
    breaks: ['SRT-03'],
    description: 'Group L sortby=masterNode is taken as unknown: the listing comes by name',
  },
  {
    name: 'sortby-excluded-ignored',
    needs: 'multichannelling',
    breaks: ['SRT-03'],
    description: 'Group L sortby=excluded is taken as unknown: the listing comes by name',
  },
  {
    name: 'sortby-deletedat-as-id',
    needs: 'wastebin',
    breaks: ['SRT-03'],
    description: 'sortby deletedat reads every deletion time as equal, so deleted objects come in id order',
    probe: { op: 'folder.getPages', folder: 'Corporate Website', query: { recursive: true, wastebin: 'only', sortby: 'deletedat' } },
  },
  {
    name: 'sortby-deletedat-ignored',
    needs: 'wastebin',
    breaks: ['SRT-03'],
    description: 'Group L sortby=deletedat is taken as unknown: the listing comes by name',
  },
  {
    name: 'sortby-filename-uses-name',
    breaks: ['SRT-03'],
    description: 'sortby=filename orders pages by their name instead of their file name',
  },
  {
    name: 'file-sort-urls-ignored',
    breaks: ['SRT-05'],
    description: 'GET /file ignores sort=niceUrl and sort=alternateUrls as unknown attributes',
  },
  // Sorting and search (server/handlers/listing.ts, issue 31)
  {
    name: 'sortby-folder-ignored',
    breaks: ['SRT-03'],
    description: 'Group L sortby=folder is taken as unknown: the listing comes by name',
    probe: { op: 'folder.getFiles', folder: 'Files', query: { recursive: true, sortby: 'folder' } },
  },
  {
    name: 'sort-missing-value-equal',
    breaks: ['SRT-05'],
    description: 'Group P sort compares an object without a value for the attribute (a file without niceUrl) as equal to every other',
    probe: { op: 'file.list', folder: 'Files', query: { sort: 'niceUrl' } },
  },
  {
    name: 'sort-unknown-attribute-500',
    breaks: ['SRT-04', 'ENV-08'],
    description: 'Group P sort with an attribute the listing has no key for fails with a 500 instead of answering',
  },
  {
    name: 'search-matches-urls',
    breaks: ['FLT-01'],
    description: "Group L search also matches a file's niceUrl and alternateUrls, as GET /file's q does",
    probe: { op: 'folder.getFiles', folder: 'Files', query: { search: 'reports' } },
  },
  {
    name: 'q-missing-niceurl-slash',
    breaks: ['FLT-02'],
    description: "GET /file q takes a file without a nice URL as having the nice URL '/', so q=/ lists it",
    probe: { op: 'file.list', folder: 'Files', query: { q: '/' } },
  },
  // Filters
  { name: 'search-ignores-description', breaks: ['FLT-01'], description: 'search matches id and name but not the description' },
  { name: 'createdsince-ignored', breaks: ['FLT-03'], description: 'the createdsince filter is ignored' },
  {
    name: 'q-ignores-urls',
    breaks: ['FLT-02'],
    description: 'GET /file q matches id, name and description but not niceUrl or alternateUrls',
  },
  {
    name: 'editor-filter-matches-creator',
    breaks: ['FLT-04'],
    description: 'editor and editorId restrict by the creating user instead of the last editor',
  },
  {
    name: 'inherited-filter-inverted',
    needs: 'multichannelling',
    breaks: ['FLT-05'],
    description: 'inherited=true returns the local objects and inherited=false the inherited ones',
  },
  { name: 'recursive-ignored', breaks: ['FLT-06'], description: 'getFiles and GET /file ignore recursive=true' },
  { name: 'getfiles-broken-filter-ignored', breaks: ['FLT-07'], description: 'the broken filter of getFiles and GET /file is ignored' },
  {
    name: 'used-pages-only',
    breaks: ['USE-05'],
    description: 'used=true counts only pages as users: a file used by a folder or file is listed as unused',
  },
  {
    name: 'used-filter-all-channels',
    needs: 'multichannelling',
    breaks: ['FLT-07', 'USE-05'],
    description: 'used=true counts usages in every channel, not only the current one',
  },
  {
    name: 'niceurl-regex-literal',
    breaks: ['FLT-08'],
    description: 'niceurl is matched as a literal substring instead of a regular expression',
  },
  { name: 'getpages-online-filter-inverted', breaks: ['FLT-09'], description: 'getPages online=true returns the offline pages' },
  {
    name: 'getpages-template-id-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores template_id and lists the pages of every template',
  },
  {
    name: 'getpages-langfallback-ignored',
    breaks: ['FLT-09'],
    description: 'getPages falls back to another language variant even with langfallback=false',
  },
  {
    name: 'getpages-priority-zero-restricts',
    breaks: ['FLT-09'],
    description: 'getPages priority=0 lists only the pages of priority 0, not all',
  },
  {
    name: 'getpages-filename-searches-name',
    breaks: ['FLT-09'],
    description: 'getPages filename searches the page names instead of their file names',
  },
  {
    name: 'getpages-permission-lists-deleted',
    needs: 'wastebin',
    breaks: ['FLT-09'],
    description: 'getPages with a permission filter lists deleted pages too, as if wastebin=include',
  },
  {
    name: 'getpages-published-bounds-swapped',
    breaks: ['FLT-09'],
    description: 'getPages publishedbefore lists the pages published since the date, and publishedsince those before it',
  },
  { name: 'getpages-timedue-ignored', breaks: ['FLT-09'], description: 'getPages ignores timedue and lists pages without time management' },
  {
    name: 'getpages-publisherid-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores publisherId and lists the pages of every publisher',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { publisherId: 5, recursive: true } },
  },
  {
    name: 'getpages-publisher-matches-editor',
    breaks: ['FLT-09'],
    description: 'getPages publisher matches its pattern against the last editor of each page instead of its publisher',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { publisher: 'Berger', recursive: true } },
  },
  {
    name: 'getpages-includemlid-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores includeMlId and lists the pages of templates of every markup language',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { includeMlId: 3 } },
  },
  {
    name: 'getpages-excludemlid-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores excludeMlId and keeps the pages of templates of the excluded markup languages',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { excludeMlId: 1 } },
  },
  {
    name: 'getpages-permission-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores permission and lists the pages of folders that withhold it too',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { recursive: true, permission: 'updateform' } },
  },
  {
    name: 'getpages-wfown-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores wfown and lists pages in no workflow too',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { wfown: true } },
  },
  {
    name: 'getpages-wfwatch-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores wfwatch and lists pages in no workflow too',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { wfwatch: true } },
  },
  {
    name: 'getpages-searchcontent-ignored',
    breaks: ['FLT-09'],
    description: 'getPages ignores searchcontent: search matches the id, name and description alone, never the content',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { search: 'lorem', searchcontent: true } },
  },
  {
    name: 'translation-status-never',
    breaks: ['FLD-09', 'FLT-09'],
    needs: 'pages',
    description: 'getPages gives no page a translation status, whatever translationstatus or insync ask: no page seems a translation',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { translationstatus: true } },
  },
  {
    name: 'insync-adds-no-translation-status',
    breaks: ['FLT-09'],
    description: 'getPages insync filters the pages but no longer adds their translation status',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { insync: false } },
  },
  {
    name: 'folder-localizations-empty',
    breaks: ['MCH-04', 'MCH-01'],
    needs: 'multichannelling',
    description:
      'GET /folder/localizations answers no copy for every folder: total 0, nodeIds {}, the localized folders seem hidden from their channels',
    probe: { op: 'folder.localizations', folder: 'Localized folder' },
  },
  {
    name: 'collision-name-lost',
    breaks: ['UPL-05'],
    description:
      'an upload named like a file of its folder (without overwrite) gets a default name, upload_1.ext, not one made from its own',
  },
  {
    name: 'copy-success-false',
    breaks: ['FIL-01'],
    description: 'a copy is made and answered 201 OK with its file, but with success false',
  },
  {
    name: 'move-localized-file-fails',
    breaks: ['FIL-02', 'ENV-08'],
    needs: 'multichannelling',
    description: 'moving a master file that a channel has localized answers 500: the server fails on the set of several variants',
  },
  {
    name: 'move-strands-master-file',
    breaks: ['FIL-02'],
    needs: 'multichannelling',
    description:
      "a move through a channel (nodeId) carries a master's file into a folder of that channel only: no listing of the master shows it any more",
  },
  {
    name: 'hide-keeps-localized-copy',
    breaks: ['MCH-06'],
    needs: 'multichannelling',
    description:
      'disinheriting or excluding an object a channel has localized is taken, and the channel lists its copy saying it is hidden there',
  },
  {
    name: 'disinherit-list-takes-own-node',
    breaks: ['MCH-06'],
    needs: 'multichannelling',
    description:
      "a disinherit list naming the object's own node is taken: the object's records name that node in disinheritedChannels, and the node still lists it",
  },
  {
    name: 'unlocalize-takes-channel-own',
    breaks: ['MCH-03'],
    needs: 'multichannelling',
    description: 'a recursive unlocalize of a folder also removes the files the channel made itself inside it',
  },
  {
    name: 'disinherit-recursive-reaches-channel-own',
    breaks: ['MCH-06'],
    needs: 'multichannelling',
    description:
      'a recursive disinherit of a folder also sets the files a channel made itself inside it, whose records then say them disinherited where they are listed',
  },
  {
    name: 'unlocalize-channel-from-copy',
    breaks: ['MCH-03'],
    needs: 'multichannelling',
    description: 'an unlocalize naming a localized copy removes it from its own channel, whatever other channel the body gives',
  },
  {
    name: 'push2master-channel-from-copy',
    breaks: ['MCH-07'],
    needs: 'multichannelling',
    description: "a push naming a localized copy pushes its channel's version, whatever other channel the body gives",
  },
  {
    name: 'perms-name-empty',
    breaks: ['FLD-11'],
    description: "GET /folder's perms give each folder an empty permission name in place of edit",
    probe: { op: 'folder.list', folder: 'Files', query: {} },
  },
  {
    name: 'insync-drops-untranslated',
    breaks: ['FLT-09'],
    description: 'getPages lists a page that is no translation under neither insync=true nor insync=false',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { insync: true } },
  },
  {
    name: 'page-queued-inverted',
    breaks: ['FLT-09'],
    description:
      'page records and the queued filter call pages with a waiting publish or take-offline request unqueued, and the others queued',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { queued: true } },
  },
  {
    name: 'page-planned-inverted',
    breaks: ['FLT-09'],
    description: 'page records and the planned filter call pages with a publish or take-offline time unplanned, and the others planned',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { planned: true } },
  },
  {
    name: 'findpages-recursive-default-false',
    breaks: ['FLT-10'],
    description: 'findPages without recursive searches the folder alone, not its sub-folders',
  },
  {
    name: 'getpages-recursive-one-level',
    breaks: ['FLT-06'],
    description: 'getPages recursive=true lists the pages of the folder and of its own sub-folders, not of deeper ones',
  },
  {
    name: 'findfiles-folder0-empty',
    breaks: ['FLT-10'],
    description: 'findFiles with folderId=0 finds nothing instead of searching all folders',
  },
  { name: 'multivalued-first-only', breaks: ['ENV-06'], description: 'only the first value of template_id is applied' },
  // Envelope, ids and records
  { name: 'globalid-not-accepted', breaks: ['ENV-05'], description: 'global ids are not accepted where the contract says local or global' },
  { name: 'folder-id-as-string', breaks: ['ENV-07'], description: 'folder records carry their id as a string' },
  { name: 'page-drops-readonly', breaks: ['PGE-01'], description: 'page records lack the required readOnly member' },
  {
    name: 'lockedsince-zero-when-unlocked',
    breaks: ['PGE-02'],
    description: 'lockedSince is 0 instead of -1 for pages that are not locked',
  },
  { name: 'alternateurls-unsorted', breaks: ['PGE-03'], description: 'alternateUrls come in stored order, not alphabetical order' },
  {
    name: 'alternateurls-reversed',
    breaks: ['PGE-03'],
    description:
      'alternateUrls come in the reverse of their stored order (a comparator that never answers "after"), not alphabetical order',
    probe: { op: 'folder.getPages', folder: 'Pages' },
  },
  {
    name: 'page-variants-summary',
    breaks: ['PGE-04'],
    description: 'pageVariants and languageVariants hold short summaries (id, name, fileName, language) instead of page records',
  },
  // Wastebin and delete
  { name: 'wastebin-only-ignored', breaks: ['WST-03'], description: 'wastebin=only behaves like include, listing live items too' },
  {
    name: 'folder-deleted-on-self',
    needs: 'wastebin',
    breaks: ['WST-05'],
    description: 'a deleted folder carries folderDeleted, its own deletion taken for that of the folder containing it',
    probe: { op: 'folder.getFolders', folder: 'Wastebin', query: { wastebin: 'include' } },
  },
  {
    name: 'deleted-folders-listed',
    needs: 'wastebin',
    breaks: ['WST-01'],
    description: 'listings without wastebin keep deleted folders and their content',
  },
  {
    name: 'getfolders-post-default-include',
    breaks: ['WST-01', 'DEL-05'],
    description: 'POST getFolders without wastebin lists deleted folders too, as if include were the default',
  },
  {
    name: 'count-ignores-wastebin',
    breaks: ['WST-04a'],
    description: 'folder count ignores wastebin=include and wastebin=only and always counts as exclude',
  },
  {
    name: 'channel-delete-skips-wastebin',
    needs: 'multichannelling',
    breaks: ['DEL-05a'],
    description: 'deleting a folder local to a channel removes it outright instead of putting it into the wastebin',
  },
  { name: 'count-recursive-ignored', breaks: ['FLD-06'], description: 'folder count ignores recursive=true and counts the folder alone' },
  {
    name: 'count-stale-after-delete',
    breaks: ['FLD-06', 'WST-04'],
    description: 'folder counts still include objects deleted through the API',
  },
  {
    name: 'delete-inherited-in-channel-allowed',
    needs: 'multichannelling',
    breaks: ['DEL-01'],
    description: 'deleting an inherited folder in a channel deletes the master folder',
  },
  {
    name: 'delete-localized-in-channel-allowed',
    needs: 'multichannelling',
    breaks: ['DEL-02'],
    description: 'deleting a localized folder in a channel deletes the localized copy',
  },
  {
    name: 'delete-master-not-in-channel',
    needs: 'multichannelling',
    breaks: ['DEL-03'],
    description: 'a folder deleted in the master stays listed in the channels',
  },
  {
    name: 'refused-delete-changes-state',
    needs: 'multichannelling',
    breaks: ['DEL-06'],
    description: 'a refused folder delete still puts the files of the folder into the wastebin',
  },
  // Folders
  {
    name: 'create-failonduplicate-ignored',
    breaks: ['FLD-02'],
    description: 'folder create with failOnDuplicate renames instead of refusing',
  },
  { name: 'tree-not-nested', breaks: ['FLD-03'], description: 'getFolders tree=true returns the top level without subfolders' },
  {
    name: 'breadcrumb-skips-mother',
    breaks: ['FLD-05'],
    description: "the breadcrumb leaves out the folder's mother: the chain is walked on from the grandparent",
    probe: { op: 'folder.breadcrumb', folder: 'Manuals' },
  },
  { name: 'reduce-ignored', breaks: ['FLD-08'], description: 'getTemplates reduce=true still lists a template once per folder' },
  {
    name: 'external-links-recursive-default',
    breaks: ['FLD-10'],
    description: 'getExternalLinks without recursive also reports the pages of the sub-folders, as if recursive defaulted to true',
  },
  {
    name: 'load-update-locks-folder',
    breaks: ['FLD-11'],
    description: 'folder load with update=true locks the folder: a second such load and a new sub-folder are refused',
  },
  { name: 'privileges-missing', breaks: ['FLD-11'], description: 'folder load with privileges=true omits the privileges' },
  {
    name: 'load-package-ignored',
    breaks: ['FLD-11'],
    description: 'folder load ignores package and answers the status in no package',
    probe: { op: 'folder.load', folder: 'Pages', query: { package: 'Spring campaign' } },
  },
  {
    name: 'load-construct-ignored',
    breaks: ['FLD-11'],
    description: 'folder load ignores construct=true and answers the tags without their construct',
    probe: { op: 'folder.load', folder: 'Sandbox', query: { construct: true } },
  },
  {
    name: 'getfolders-recid-ignored',
    breaks: ['FLD-03'],
    description: 'GET getFolders ignores recId (it knows only recursiveIds) and fetches the children of every folder',
    probe: { op: 'folder.getFolders', folder: 'Pages', query: { recursive: true, recId: 'none' } },
  },
  {
    name: 'created-folder-globalid-unknown',
    breaks: ['FLD-01'],
    description: 'a created folder is not indexed by its globalId, so loading it by globalId answers NOTFOUND',
  },
  {
    name: 'getfolders-post-paging-ignored',
    breaks: ['FLD-04'],
    description: 'POST getFolders ignores skipCount and maxItems and answers every folder',
  },
  {
    name: 'getitems-lists-subfolder-content',
    breaks: ['FLD-07'],
    description: 'getItems without recursive also lists the items of the sub-folders, as if recursive defaulted to true',
  },
  {
    name: 'getitems-lists-nothing',
    breaks: ['FLD-07'],
    description: 'getItems without type lists no item of any kind: items [] for every folder',
  },
  {
    name: 'recursiveids-node-form-ignored',
    breaks: ['FLD-03'],
    description: 'recursiveIds given as nodeId/folderId name no folder, so no folder of the list has its children fetched',
  },
  {
    name: 'listing-privileges-ignored',
    breaks: ['FLD-11'],
    description: 'the folder listings ignore addPrivileges (and getFolders privileges): their records come without privileges',
    probe: { op: 'folder.getFolders', folder: 'Files', query: { addPrivileges: true } },
  },
  {
    name: 'count-pages-templates-inherited-ignored',
    needs: 'multichannelling',
    breaks: ['FLD-06'],
    description: 'folder count with inherited in a channel restricts folders, images and files but counts every page and template',
    probe: { op: 'folder.count', folder: 'Pages', query: { nodeId: 2, inherited: false } },
  },
  {
    name: 'count-images-inherited-ignored',
    needs: 'multichannelling',
    breaks: ['FLD-06'],
    description: 'folder count with inherited in a channel restricts folders, files, pages and templates but counts every image',
    probe: { op: 'folder.count', folder: 'Images', query: { nodeId: 2, inherited: false } },
  },
  {
    name: 'getfolders-post-deleted-folder-listed',
    needs: 'wastebin',
    breaks: ['FLD-04'],
    description: 'POST getFolders without wastebin lists a deleted folder (empty), where GET getFolders refuses it as not found',
  },
  {
    name: 'getfolders-post-own-folders-only',
    breaks: ['FLD-04'],
    description: 'POST getFolders lists only the folders the requesting user created, where GET getFolders lists every folder',
  },
  {
    name: 'breadcrumb-has-more-items',
    breaks: ['FLD-05'],
    description: 'the breadcrumb says hasMoreItems true though it lists the whole chain from the root',
    probe: { op: 'folder.breadcrumb', folder: 'Manuals' },
  },
  // Files and uploads
  {
    name: 'create-unknown-mother-500',
    breaks: ['NEG-03', 'ENV-08'],
    description: 'folder create under an unknown motherId escapes as a 500 FAILURE (a null dereference) instead of a refusal',
  },
  {
    name: 'load-stagingstatus-as-map',
    breaks: ['FIL-04'],
    description:
      "file load answers stagingStatus in the list answers' shape, a map from the file's id to its status, not one stagingStatus object",
  },
  { name: 'copy-ignores-newfilename', breaks: ['FIL-01'], description: 'file copy keeps the source name instead of newFilename' },
  { name: 'move-keeps-old-listing', breaks: ['FIL-02'], description: 'a moved file is still listed in its old folder' },
  { name: 'save-description-dropped', breaks: ['FIL-03'], description: 'file save (JSON) renames the file but keeps its old description' },
  { name: 'save-failonduplicate-ignored', breaks: ['FIL-03'], description: 'file save with failOnDuplicate renames instead of refusing' },
  {
    name: 'save-refused-name-kept',
    breaks: ['FIL-03'],
    description:
      'file save with failOnDuplicate refuses a name used in the folder, but has already stored it: the refusal changes the file',
  },
  {
    name: 'save-clears-unsent-urls',
    breaks: ['FIL-03'],
    description: 'file save (JSON) whose file gives no niceUrl and no alternateUrls clears both, instead of updating only the given fields',
  },
  {
    name: 'save-force-online-lost',
    breaks: ['FIL-03'],
    description:
      'file save (JSON) never stores forceOnline and clears it: a file forced online is no longer so after a save of its description alone',
  },
  {
    name: 'save-empties-alternate-urls',
    breaks: ['FIL-03'],
    description: 'file save (JSON) that gives alternateUrls stores none: a file that had some loses them, neither as given nor as before',
  },
  { name: 'upload-drops-last-byte', breaks: ['UPL-01', 'UPL-07'], description: 'uploads store all bytes but the last' },
  {
    name: 'createsimple-ignores-databodypart',
    breaks: ['UPL-04'],
    description: 'createSimple ignores databodypart and only knows the default part names',
  },
  {
    name: 'overwrite-creates-copy',
    breaks: ['UPL-05'],
    description: 'overwrite=true creates a renamed copy instead of replacing the file',
  },
  {
    name: 'overwrite-matches-across-views',
    breaks: ['UPL-05'],
    description:
      "overwrite=true replaces a file of the same name in any node's view of the folder: an upload to the channel replaces the master's file",
    needs: 'multichannelling',
  },
  { name: 'save-multipart-ignored', breaks: ['UPL-06'], description: 'file save (multipart) answers OK but keeps the old content' },
  {
    name: 'multipart-json-data-as-url-create',
    breaks: ['UPL-02'],
    description: 'a multipart create whose data part reads as a JSON create request with sourceURL is carried out as that JSON create',
  },
  {
    name: 'url-create-name-from-url',
    breaks: ['UPL-02a'],
    description: "a JSON create names the file after the sourceURL's last path segment instead of the name sent",
  },
  {
    name: 'createsimple-raw-ignores-qqfile',
    breaks: ['UPL-03'],
    description: 'a raw createSimple requires qqfile but names the file new_file',
  },
  {
    name: 'createsimple-multipart-ignores-qqfile',
    breaks: ['UPL-04'],
    description:
      'a multipart createSimple ignores qqfile and names the file as the multipart create does (fileName, the part filename, new_file)',
  },
  {
    name: 'overwrite-absent-replaces',
    breaks: ['UPL-05'],
    description: 'createSimple without overwrite replaces the file of the same name, as if overwrite=true',
  },
  {
    name: 'multipart-no-data-part-empty-file',
    breaks: ['UPL-08'],
    description: 'a multipart body without a data part creates an empty file instead of being refused',
  },
  {
    name: 'createsimple-no-folder-uses-root',
    breaks: ['UPL-03'],
    description: 'a raw createSimple without folderId creates the file in the root folder instead of being refused',
  },
  {
    name: 'findfiles-filesize-zero',
    breaks: ['FIL-05'],
    description: 'findFiles records carry fileSize 0 instead of the size of the file',
  },
  {
    name: 'multipart-overwrite-text-truthy',
    breaks: ['UPL-05'],
    description:
      'a multipart create takes an overwrite text part as true whatever it says: overwrite "false" replaces the file of the same name',
  },
  {
    name: 'overwrite-matches-any-kind',
    breaks: ['UPL-05'],
    description: 'overwrite=true takes any object of the name for the file to replace: a sub-folder of that name is answered as the file',
  },
  {
    name: 'filesize-sort-broken-fails',
    breaks: ['SRT-05'],
    description: 'GET /file sorted by fileSize fails (a 500) on a folder holding a broken file, whose binary data is missing',
  },
  {
    name: 'overwrite-empty-folder-fails',
    breaks: ['UPL-05'],
    description: 'an upload with overwrite=true into a folder that never held an object fails with a 500 instead of creating the file',
  },
  {
    name: 'extensionless-name-gets-txt',
    breaks: ['UPL-01'],
    description: 'a multipart create gives a name without an extension ".txt", also for application/octet-stream data',
  },
  // Multichannelling
  {
    name: 'inherited-from-names-channel',
    needs: 'multichannelling',
    breaks: ['MCH-01'],
    description: 'inheritedFrom names the channel instead of the node the object comes from',
  },
  {
    name: 'localize-noop',
    needs: 'multichannelling',
    breaks: ['MCH-02'],
    description: 'localize answers OK but makes no copy: the channel still sees the inherited master',
  },
  {
    name: 'localize-drops-tags',
    needs: 'multichannelling',
    breaks: ['MCH-07'],
    description:
      "localize makes the channel's copy without the object's tags: a push2master of that copy, changed by nothing, leaves the master without the object tags it had",
  },
  {
    name: 'unlocalize-keeps-copy',
    needs: 'multichannelling',
    breaks: ['MCH-03', 'DEL-04'],
    description: 'unlocalize answers OK but the channel keeps the localized copy',
  },
  {
    name: 'localizations-total-off-by-one',
    needs: 'multichannelling',
    breaks: ['MCH-04'],
    description: 'localizations counts one copy too many in total',
  },
  {
    name: 'disinherit-get-empty',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description: 'the GET disinherit forms always report an empty disinherit list',
  },
  {
    name: 'excluded-visible-in-channel',
    needs: 'multichannelling',
    breaks: ['MCH-06'],
    description: 'excluded and disinherited objects are still listed in the channel',
  },
  {
    name: 'reinherit-ignored',
    needs: 'multichannelling',
    breaks: ['MCH-06'],
    description: 'disinherit with reinherit answers OK but the objects stay hidden in the channel',
  },
  {
    name: 'push2master-noop',
    needs: 'multichannelling',
    breaks: ['MCH-07'],
    description: 'push2master answers OK but changes nothing in the master',
  },
  {
    name: 'localizationinfo-master-start-skips-master',
    needs: 'multichannelling',
    breaks: ['MCH-08'],
    description: 'localizationinfo started at a master node (one without a master of its own) has no entry for that node',
    probe: { op: 'folder.localizationinfo', folder: 'Multichannel', query: { nodeId: 1, recursive: true } },
  },
  {
    name: 'localizationinfo-local-as-inherited',
    needs: 'multichannelling',
    breaks: ['MCH-08'],
    description: "localizationinfo counts a node's own objects (local) as inherited",
    probe: { op: 'folder.localizationinfo', folder: 'Multichannel', query: { nodeId: 2, recursive: true } },
  },
  {
    name: 'localizationinfo-localized-as-inherited',
    needs: 'multichannelling',
    breaks: ['MCH-02', 'MCH-08'],
    description: 'localizationinfo counts localized objects as inherited',
  },
  {
    name: 'unlocalize-first-copy',
    needs: 'multichannelling',
    breaks: ['MCH-03'],
    description: 'unlocalize removes the first localized copy of the object, whichever channel channelId names',
  },
  {
    name: 'node-id-one-digit',
    // The test that sends a node id of the varied data set's many digits is about channels.
    needs: 'multichannelling',
    breaks: ['UPL-05'],
    data: 'varied:1',
    description: 'the upload forms refuse a nodeId of two or more digits, a pattern written for the one-digit node ids of a test system',
  },
  {
    name: 'wfwatch-no-group-500',
    breaks: ['FLT-09', 'ENV-08'],
    data: 'varied:1',
    description:
      "getPages wfwatch=true escapes as a 500 when the requesting user is in no group: the user's groups are read without a default",
  },
  {
    name: 'recursive-ids-unknown-500',
    breaks: ['ENV-08'],
    description: 'a recursive folder listing whose recursiveIds names an id no object has answers 500 (the id is read as a folder)',
  },
  {
    name: 'startpage-without-template-500',
    breaks: ['ENV-08'],
    data: 'varied:1',
    description: 'creating a folder with startpage true under a folder into which no template is linked answers 500 instead of a refusal',
  },
  {
    name: 'save-collision-500',
    breaks: ['ENV-08'],
    description:
      "a JSON save onto a name the folder holds, without failOnDuplicate, escapes as a 500: the numbering calls a helper the save path's index of names lacks",
  },
  {
    name: 'push2master-content-500',
    needs: 'multichannelling',
    breaks: ['ENV-08'],
    description: 'push2master of a folder with recursive escapes as a 500: the content below it is walked without the channel view',
  },
  {
    name: 'page-size-capped',
    breaks: ['PAG-03', 'PAG-07'],
    description: "a pageSize or maxItems above 100 is cut to 100, a maximum page size of the server's own",
  },
  {
    name: 'recursion-depth-limited',
    breaks: ['FLD-03'],
    description: 'recursive listings stop 200 levels below the folder asked for, as a recursive walk with a guard against deep trees does',
  },
  {
    name: 'unlocalize-ignores-recursive-false',
    needs: 'multichannelling',
    breaks: ['MCH-03'],
    description: 'unlocalizing a folder with recursive false unlocalizes the localized copies inside it too',
  },
  {
    name: 'unlocalize-recursive-first-variant',
    needs: 'multichannelling',
    breaks: ['MCH-03'],
    description:
      "unlocalizing a folder with recursive true removes the first variant of every set below it, whichever node holds it: the master's own objects, or another channel's copies",
  },
  {
    name: 'push2master-orphans-local-file',
    needs: 'multichannelling',
    breaks: ['MCH-07'],
    description:
      'push2master of a file local to the channel inside a folder only the channel has answers OK and moves the file into the master under a folder the master lacks: the master lists it nowhere',
  },
  {
    name: 'localize-again-copies',
    needs: 'multichannelling',
    breaks: ['MCH-03'],
    description:
      'localizing an object the channel has localized already makes a second copy in that channel: one unlocalize then leaves the channel a copy',
  },
  {
    name: 'unlocalize-removes-local',
    needs: 'multichannelling',
    breaks: ['MCH-03'],
    description: 'unlocalizing an object the channel made itself answers OK and removes it outright: the channel lists it no more',
  },
  {
    name: 'disinherit-get-reads-copy',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description:
      "GET /folder/disinherit/{id} in a channel that localized the folder reads the localized copy's own status, which no setter writes: a disinheritDefault set there does not read back",
  },
  {
    name: 'disinherit-set-on-copy',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description:
      'POST /folder/disinherit/{id} in a channel that localized the folder puts disinheritDefault on the localized copy, which no reader consults: it does not read back',
  },
  {
    name: 'reinherit-leaves-disinherited',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description:
      'an object reinherited in every channel it was disinherited for keeps a mark no channel matches: the GET forms read no channel, but its record still says disinherited true',
  },
  {
    name: 'copy-keeps-master',
    needs: 'multichannelling',
    breaks: ['FIL-01'],
    description:
      "a copy of a localized file keeps the source's master: the new file passes for a localized copy, and an unlocalize in its channel removes it outright",
  },
  {
    name: 'disinherit-refused-when-localized',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description:
      'a disinherit request on an object with a localized copy is refused 409 "unlocalize it first" even when it hides nothing from that channel (disinheritDefault, recursive)',
  },
  {
    name: 'disinherit-always-recursive',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description: "a folder's exclusion and disinherit settings reach its content even without recursive",
  },
  {
    name: 'disinherit-many-default-ignored',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description: 'POST /folder/disinherit and POST /file/disinherit ignore disinheritDefault',
  },
  {
    name: 'push2master-copies-identity',
    needs: 'multichannelling',
    breaks: ['MCH-07'],
    description: "push2master gives the master object the copy's id and node along with its content, so the master loses its file",
  },
  {
    name: 'push2master-local-stays',
    needs: 'multichannelling',
    breaks: ['MCH-07'],
    description: 'push2master of a file local to the channel answers OK but leaves the file in the channel only',
  },
  {
    name: 'kept-listing-after-change',
    breaks: ['SRT-01'],
    description: 'a file rename marks nothing changed: listings sorted before it are answered again after it, in their old order',
  },
  // Usage
  { name: 'usage-total-after-paging', breaks: ['USE-01'], description: 'usage total counts the returned page instead of every user' },
  {
    name: 'usage-user-once-per-file',
    breaks: ['USE-01'],
    description: 'a usage list names a user once for every given file it uses, not once',
  },
  { name: 'usage-counts-flag-ignored', breaks: ['USE-02'], description: 'files=false / folders=false still return the list' },
  {
    name: 'usage-skips-given-users',
    breaks: ['USE-01'],
    description: 'usage/file leaves out a given file that uses another given file',
  },
  {
    name: 'usage-paged-before-sorting',
    breaks: ['USE-03'],
    description: 'usage lists cut the page out of the unsorted list, then sort it',
  },
  {
    name: 'syncable-missing-images',
    needs: 'multichannelling',
    breaks: ['USE-04'],
    description: 'syncableObjects leaves out referenced images',
  },
  {
    name: 'usage-lists-deleted-users',
    breaks: ['WST-01'],
    description: 'usage lists keep the users that are deleted (in the wastebin, or inside a deleted folder)',
  },
  {
    name: 'syncable-srcnodeid-ignored',
    breaks: ['USE-04'],
    description: "syncableObjects ignores srcNodeId and reports the master's version of what the files refer to, not the source channel's",
    needs: 'multichannelling',
  },
  {
    name: 'getpages-language-ranked-by-node',
    breaks: ['FLT-09'],
    description:
      "getPages language with fallback ranks the requested language as one of the node's: a content set lists its highest-priority variant even where it has the language",
    probe: { op: 'folder.getPages', folder: 'Pages', query: { language: 'de', recursive: true } },
  },
  {
    name: 'getpages-langfallback-first-stored',
    breaks: ['FLT-09'],
    description:
      "getPages langfallback lists the variant stored first of a content set that lacks the language, not the one in the node's highest-priority language",
    probe: { op: 'folder.getPages', folder: 'Pages', query: { language: 'fr', recursive: true } },
  },
  {
    name: 'getpages-timedue-any-time',
    breaks: ['FLT-09'],
    description: 'getPages timedue lists every page with a time to publish or take offline, however far beyond the span',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { timedue: 86400, recursive: true } },
  },
  {
    name: 'niceurl-missing-as-text',
    breaks: ['FLT-08'],
    description: 'niceurl tests an object without a nice URL as the text "undefined", so a pattern matching that text lists it',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { niceurl: 'n' } },
  },
  {
    name: 'external-links-none',
    breaks: ['FLD-10'],
    description: "getExternalLinks lists no page: the web links in the pages' tags go unreported",
  },
  {
    name: 'template-links-unread',
    breaks: ['FLD-08'],
    description: 'the template links of folders are never read: getTemplates lists no template and count counts none',
  },
  {
    name: 'findpages-maxitems-needs-skipcount',
    breaks: ['PAG-07'],
    description: 'findPages applies maxItems only with a skipCount: from the first match it returns every match',
  },
  {
    name: 'getpages-searchcontent-always',
    breaks: ['FLT-09'],
    description: 'getPages searches the content of pages even without searchcontent',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { recursive: true, search: 'lorem' } },
  },
  // Records (server/handlers/render.ts)
  {
    name: 'page-path-of-mother',
    breaks: ['FLD-09'],
    description: "a page's path is the path of its folder's mother, one folder short of the folder getPages adds",
    probe: { op: 'folder.getPages', folder: 'Pages', query: { recursive: true } },
  },
  {
    name: 'page-master-inverted',
    needs: 'multichannelling',
    breaks: ['MCH-01'],
    description: 'page records carry master with the wrong sense: master pages say false, localized copies true',
    probe: { op: 'folder.getPages', folder: 'Multichannel' },
  },
  {
    name: 'page-fetched-for-edit',
    breaks: ['PGE-01'],
    description: 'page records of the listings say readOnly false, as if fetched in edit mode',
    probe: { op: 'folder.getPages', folder: 'Pages' },
  },
  {
    name: 'page-version-never-advances',
    breaks: ['PGE-01'],
    description: "a page's currentVersion stays its first version after edits, so a modified page names its published version as current",
    probe: { op: 'folder.getPages', folder: 'Pages' },
  },
  {
    name: 'time-management-blank',
    breaks: ['PGE-01'],
    description: 'page records carry a blank timeManagement (no times, no queued requests), also on planned and queued pages',
    probe: { op: 'folder.getPages', folder: 'Pages' },
  },
  {
    name: 'record-excluded-unread',
    needs: 'multichannelling',
    breaks: ['MCH-05'],
    description: 'folder, file and page records say excluded false also for objects excluded from multichannelling',
    probe: { op: 'folder.getFolders', folder: 'Multichannel' },
  },
  {
    name: 'template-tag-flags-as-text',
    breaks: ['FLD-08'],
    description: 'template tags carry mandatory and editableInPage as the strings "true" and "false" of the template form, not as booleans',
    probe: { op: 'folder.getTemplates', folder: 'Templates' },
  },
  {
    name: 'master-deletion-unmarked',
    needs: 'multichannelling',
    breaks: ['WST-05'],
    description:
      'a localized copy whose master was deleted carries no deletion information at all (neither masterDeleted nor deleted) when listed with include',
  },
  {
    name: 'folder-motherid-grandparent',
    breaks: ['FLD-03'],
    description: "folder records name their parent's parent as motherId",
    probe: { op: 'folder.getFolders', folder: 'Files' },
  },
  {
    name: 'page-language-missing',
    breaks: ['FLT-09'],
    description: 'page records leave out language and languageName, also for pages that have a language',
    probe: { op: 'folder.getPages', folder: 'Pages' },
  },
  {
    name: 'master-delete-spares-localized-copies',
    needs: 'multichannelling',
    breaks: ['DEL-03'],
    description:
      "deleting in its master a folder a channel has localized bins the master folder alone: the channel's localized copy and what is in it stay listed in the channel",
  },
  {
    name: 'createsimple-extensionless-qqfile-refused',
    breaks: ['UPL-04'],
    description: 'a multipart createSimple whose qqfile has no extension is refused as if it named no file',
  },
]);
