/** PerRun.retrying: a shared value whose making failed is made again by the next test, a made one is kept. */
import { describe, expect, it } from 'vitest';
import { PerRun } from '../../harness/suite.ts';

describe('PerRun.retrying', () => {
  it('drops a value whose making failed, and keeps one that was made', async () => {
    const shared = new PerRun<Promise<number>>();
    let made = 0;
    const failing = () => {
      made++;
      return Promise.reject(new Error('the target did not answer'));
    };
    await expect(shared.retrying(failing)).rejects.toThrow('did not answer');
    await expect(shared.retrying(failing)).rejects.toThrow('did not answer');
    expect(made).toBe(2);
    const working = () => Promise.resolve(++made);
    expect(await shared.retrying(working)).toBe(3);
    expect(await shared.retrying(working)).toBe(3);
    expect(made).toBe(3);
  });
});
