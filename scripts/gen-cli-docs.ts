/**
 * Writes docs/cli.md, the CLI reference, from the commands' own tables (cli/*.ts, rendered by cli/help.ts): per
 * command its summary, usage line, arguments, options (type, default, what it does, an example) and notes. Run with
 * `npm run gen:cli-docs`; test/cli/help.test.ts fails when the committed file drifts.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { referenceMarkdown } from '../cli/help.ts';
import { commandGroups } from '../cli/main.ts';

/** Absolute path of the generated file. */
export const CLI_DOCS_PATH = fileURLToPath(new URL('../docs/cli.md', import.meta.url));

/** The full text of docs/cli.md for the commands as they are. */
export async function renderCliDocs(): Promise<string> {
  return referenceMarkdown(await commandGroups());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(CLI_DOCS_PATH, await renderCliDocs());
  console.log(`wrote ${CLI_DOCS_PATH}`);
}
