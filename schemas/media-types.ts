/**
 * The one table of file name extensions and the media types they name: the request generators type the files they
 * upload by it, and the reference server derives a file's type from its name (reference notes: "createSimple raw body:
 * the media type is derived from its extension") and adds an extension to a name that has none from it. Neutral
 * ground: the suites and generators must not import server/, and the server imports no suite. Each reads it its own way:
 * the server knows no type for an unknown extension (server/handlers/uploads.ts typeOfName), a generator sends such a
 * file as application/octet-stream (generators/requests.ts mediaTypeOf).
 *
 * Order matters: the server's reverse lookup (media type to extension) takes the first extension of a type, so html
 * before htm and jpg before jpeg.
 */
export const MEDIA_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  html: 'text/html',
  htm: 'text/html',
  css: 'text/css',
  csv: 'text/csv',
  md: 'text/markdown',
  // text/xml, not application/xml: the contract names a type for the extension in one place, the template record's
  // markup language (2.7 `markupLanguage`: `extension`, `contentType`), and the reference data's XML markup language
  // is {extension xml, contentType text/xml}, as the reference server derived it; RFC 7303 makes the two aliases, so a
  // server that says application/xml is no less right, and no test compares the type of an xml upload with another.
  xml: 'text/xml',
  js: 'text/javascript',
  json: 'application/json',
  pdf: 'application/pdf',
  zip: 'application/zip',
  gz: 'application/gzip',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  webp: 'image/webp',
  mp3: 'audio/mpeg',
  mp4: 'video/mp4',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};
