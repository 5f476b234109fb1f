/** Making the folders reports go into. */
import { lstatSync, mkdirSync, readlinkSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';

/** The error code of a failed file system call ('ENOENT', 'EACCES', ...), or its message. */
function codeOf(err: unknown): string {
  return (err as NodeJS.ErrnoException).code ?? (err as Error).message;
}

/**
 * Makes a folder and its missing parents, or throws an Error that names the part that cannot be made.
 * Not `mkdirSync(dir, { recursive: true })`: Node's walk spins at full CPU forever, past any signal, when
 * a parent exists but cannot hold children (under /proc, or a link to nothing), because each such mkdir
 * answers ENOENT and each retry of its parent EEXIST (seen with `run --out /proc/x`).
 */
export function makeDir(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); ; at = dirname(at)) {
    let isDir: boolean;
    try {
      isDir = statSync(at).isDirectory();
    } catch (err) {
      // ENOTDIR: a file further up; the walk reaches it and says so.
      if (codeOf(err) !== 'ENOENT' && codeOf(err) !== 'ENOTDIR') throw new Error(`cannot read ${at} (${codeOf(err)})`);
      missing.push(at);
      if (dirname(at) === at) break;
      continue;
    }
    if (!isDir) throw new Error(`${at} is a file, not a folder`);
    break;
  }
  for (const at of missing.reverse()) {
    try {
      mkdirSync(at);
    } catch (err) {
      // Made meanwhile by another run into the same folder: as good as made here.
      if (codeOf(err) === 'EEXIST' && statSync(at, { throwIfNoEntry: false })?.isDirectory()) continue;
      if (codeOf(err) === 'EEXIST' && lstatSync(at, { throwIfNoEntry: false })?.isSymbolicLink())
        throw new Error(`${at} is a link to ${readlinkSync(at)}, which does not exist`);
      throw new Error(`cannot create ${at} (${codeOf(err)})`);
    }
  }
}
