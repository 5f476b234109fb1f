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
    name: 'insync-adds-no-translation-status',
    breaks: ['FLT-09'],
    description: 'getPages insync filters the pages but no longer adds their translation status',
    probe: { op: 'folder.getPages', folder: 'Pages', query: { insync: false } },
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
  { name: 'deleted-missing-by', breaks: ['WST-02'], description: 'deleted objects carry deleted.at without deleted.by' },
  { name: 'folder-deleted-missing', breaks: ['WST-05'], description: 'objects inside a deleted folder lack folderDeleted' },
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
  { name: 'breadcrumb-reversed', breaks: ['FLD-05'], description: 'the breadcrumb lists the folders from the folder up to the root' },
  { name: 'reduce-ignored', breaks: ['FLD-08'], description: 'getTemplates reduce=true still lists a template once per folder' },
  { name: 'external-links-any-scheme', breaks: ['FLD-10'], description: 'getExternalLinks also lists ftp: and other non-http links' },
  {
    name: 'load-update-locks-folder',
    breaks: ['FLD-11'],
    description: 'folder load with update=true locks the folder: a second such load and a new sub-folder are refused',
  },
  { name: 'privileges-missing', breaks: ['FLD-11'], description: 'folder load with privileges=true omits the privileges' },
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
    name: 'getitems-default-pages-only',
    breaks: ['FLD-07'],
    description: 'getItems without type lists only the pages of the folder, not its files and images',
  },
  // Files and uploads
  {
    name: 'create-unknown-mother-500',
    breaks: ['NEG-03', 'ENV-08'],
    description: 'folder create under an unknown motherId escapes as a 500 FAILURE (a null dereference) instead of a refusal',
  },
  { name: 'load-missing-stagingstatus', breaks: ['FIL-04'], description: 'file load answers without stagingStatus' },
  { name: 'copy-ignores-newfilename', breaks: ['FIL-01'], description: 'file copy keeps the source name instead of newFilename' },
  { name: 'move-keeps-old-listing', breaks: ['FIL-02'], description: 'a moved file is still listed in its old folder' },
  { name: 'save-description-dropped', breaks: ['FIL-03'], description: 'file save (JSON) renames the file but keeps its old description' },
  { name: 'save-failonduplicate-ignored', breaks: ['FIL-03'], description: 'file save with failOnDuplicate renames instead of refusing' },
  {
    name: 'save-name-ignores-images',
    breaks: ['FIL-03'],
    description: 'file save checks a new name against the files of the folder only: with failOnDuplicate it takes the name of an image',
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
    name: 'createsimple-part-filename-first',
    breaks: ['UPL-04'],
    description: "a multipart createSimple names the file by the data part's filename instead of qqfile",
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
  // Multichannelling
  {
    name: 'inherited-from-names-channel',
    needs: 'multichannelling',
    breaks: ['MCH-01'],
    description: 'inheritedFrom names the channel instead of the node the object comes from',
  },
  {
    name: 'localized-copy-keeps-inherited',
    needs: 'multichannelling',
    breaks: ['MCH-02'],
    description: 'a localized copy is still shown as inherited in its channel',
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
    name: 'localizationinfo-localized-as-inherited',
    needs: 'multichannelling',
    breaks: ['MCH-02', 'MCH-08'],
    description: 'localizationinfo counts localized objects as inherited',
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
    name: 'syncable-srcnodeid-ignored',
    breaks: ['USE-04'],
    description: "syncableObjects ignores srcNodeId and reports the master's version of what the files refer to, not the source channel's",
    needs: 'multichannelling',
  },
]);
