/**
 * The privilege members of a folder record (contract 2.3), as the folder listings and load add them when asked (FLD-11).
 */
import { isRecord } from '../../harness/rules/answer.ts';
import type { Folder } from '../../schemas/types.ts';

/** A folder record's privilege members as the listing answered them. */
export const privilegesOf = (f: Folder) => ({ privileges: f.privileges, privilegeBits: f.privilegeBits, privilegeMap: f.privilegeMap });

/**
 * Whether a folder record carries its privileges in one of the members the Folder record has for them (contract 2.3: `privileges`
 * "array of string (privilege names)", `privilegeBits` "string", `privilegeMap` "object"), or an answer's `perms` ("map string to
 * array of string (permission names)", 2.9) names it. Which of them a flag adds is an open choice (privileges-members), and which
 * privileges the user has is not said: an empty list is a list.
 */
export function carriesPrivileges(f: Folder, perms?: unknown): boolean {
  if (Array.isArray(f.privileges) && f.privileges.every((p) => typeof p === 'string')) return true;
  if (typeof f.privilegeBits === 'string') return true;
  if (isRecord(f.privilegeMap)) return true;
  return isRecord(perms) && Array.isArray(perms[String(f.id)]);
}
