/**
 * OP-<id>: every operation of the catalogue has a handler, and a valid request gets a body that
 * validates against the operation's response schema ("a valid request gets the success status ... and
 * that body validates against the operation's response schema").
 */
import { describe, expect, it } from 'vitest';
import { operations } from '../../schemas/operations.ts';
import { handlers } from '../../server/handlers/index.ts';
import { call, freshState, validRequests } from './helpers.ts';

describe('operation catalogue', () => {
  it('has a handler for every operation id and no other', () => {
    expect(Object.keys(handlers).sort()).toEqual(operations.map((op) => op.id).sort());
    expect(operations).toHaveLength(43);
  });

  it.each(Object.keys(validRequests))('%s answers a valid request with a schema-valid body', async (id) => {
    const state = freshState();
    const body = await call(state, id, validRequests[id]!(state));
    expect(body).toBeTypeOf('object');
  });
});
