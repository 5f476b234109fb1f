/** `cms-conformance clean`: removes sandbox folders that killed runs left on a target. */
import { requestOf } from '../harness/api.ts';
import { SANDBOX_PREFIX, removeFolder } from '../harness/sandbox.ts';
import { TargetError, loadTargetFile, unreachableReason } from '../harness/target.ts';
import { Transport } from '../harness/transport.ts';
import type { LegacyFolderListResponse } from '../schemas/types.ts';
import { UsageError, intOption, parseOptions, type Command, type OptionTable } from './args.ts';

const OPTIONS = {
  target: {
    type: 'string',
    value: 'FILE',
    required: true,
    description: 'the target file of the server to clean (the embedded server keeps nothing between runs)',
    example: '--target target.json',
  },
  'older-than': {
    type: 'string',
    value: 'MINUTES',
    byDefault: '60',
    description: 'remove the sandboxes older than this, so that a run still going is left alone; 0 removes all',
    example: '--target target.json --older-than 0',
  },
  name: {
    type: 'string',
    value: 'NAME',
    byDefault: 'none',
    description: 'remove the one sandbox of that name, whatever its age (a stopped run prints it); not with --older-than',
    example: `--target target.json --name ${SANDBOX_PREFIX}20260101T120000Z-ab12cd`,
  },
  'dry-run': { type: 'boolean', description: 'list the sandboxes without removing anything', example: '--target target.json --dry-run' },
} as const satisfies OptionTable;

/** The creation time a sandbox name carries, or undefined when the name is not a sandbox's. */
export function sandboxTime(name: string): Date | undefined {
  const m = new RegExp(`^${SANDBOX_PREFIX}(\\d{4})(\\d{2})(\\d{2})T(\\d{2})(\\d{2})(\\d{2})Z-`).exec(name);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s] = m;
  return new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
}

export const command: Command = {
  summary: 'remove sandbox folders left on a target by killed runs',
  options: OPTIONS,
  about: [
    `Removes the sandbox folders (named \`${SANDBOX_PREFIX}<UTC timestamp>-<tag>\`) that runs left under the target's fixture.sandboxParentFolderId.`,
  ],
  exit: '0 all removed, 1 some could not be removed, 2 usage error, 3 target unreachable.',
  async run(args) {
    const { values } = parseOptions(args, OPTIONS);
    if (!values.target) throw new UsageError('clean needs --target FILE (the embedded server keeps nothing between runs)');
    const minutes = intOption('older-than', values['older-than'], 60, 0);
    const name = values.name;
    if (name !== undefined && values['older-than'] !== undefined) throw new UsageError('--name and --older-than do not go together');
    // Only ever a sandbox: a name without the prefix would let a typo remove a folder the run never made.
    if (name !== undefined && sandboxTime(name) === undefined)
      throw new UsageError(`--name must be a sandbox's name (${SANDBOX_PREFIX}<UTC timestamp>-<tag>), got "${name}"`);
    let target;
    try {
      target = loadTargetFile(values.target);
    } catch (err) {
      if (err instanceof TargetError) throw new UsageError(err.message);
      throw err;
    }
    const transport = new Transport(target, { concurrency: 1 });
    try {
      const unreachable = await unreachableReason(transport);
      if (unreachable) {
        console.error(`cms-conformance: target unreachable: ${unreachable}`);
        return 3;
      }
      const parent = target.fixture.sandboxParentFolderId;
      const listing = await transport.send(requestOf('folder.getFolders', { path: { id: parent }, query: { maxItems: -1 } }));
      const folders = (listing.response?.json as LegacyFolderListResponse | undefined)?.folders;
      if (!Array.isArray(folders)) {
        console.error(`cms-conformance: cannot list the folders of ${parent}: status ${listing.response?.status ?? listing.error?.code}`);
        return 1;
      }
      const cutoff = Date.now() - minutes * 60_000;
      const stale = folders.filter((f) => {
        const at = typeof f.name === 'string' ? sandboxTime(f.name) : undefined;
        if (at === undefined || typeof f.id !== 'number') return false;
        return name !== undefined ? f.name === name : at.getTime() <= cutoff;
      });
      if (!stale.length) {
        if (name !== undefined) {
          // Removed already (by the run's own wrap-up, say): nothing is left, which is what was asked.
          console.log(`no sandbox named ${name} under folder ${parent}: nothing to remove`);
          return 0;
        }
        console.log(`no sandbox older than ${minutes} minutes under folder ${parent}`);
      }
      let failed = 0;
      for (const f of stale) {
        if (values['dry-run']) {
          console.log(`would remove ${f.id} ${f.name}`);
        } else if (await removeFolder(transport, f.id!)) {
          console.log(`removed ${f.id} ${f.name}`);
        } else {
          failed++;
          console.log(`could not remove ${f.id} ${f.name}`);
        }
      }
      return failed ? 1 : 0;
    } finally {
      await transport.close();
    }
  },
};
