/**
 * The mutation run's ignorers (scripts/mutation/ignorers.mjs): code that is planted-fault wiring is
 * ignored, real logic beside it never is; what a refusal says is ignored, whether it is made never is. Each case parses TypeScript as Stryker does (Babel) and lists
 * the source of every node the ignorer would ignore.
 */
import { parseSync, traverse, type NodePath } from '@babel/core';
import { describe, expect, it } from 'vitest';
import { faultCode, refusalDetail } from '../../scripts/mutation/ignorers.mjs';

/** The outermost ignored nodes of a snippet, as source text (an ignored node's children are ignored with it). */
function ignored(code: string, ignorer: (path: NodePath) => string | undefined = faultCode): string[] {
  const ast = parseSync(code, { filename: 'x.ts', presets: ['@babel/preset-typescript'], babelrc: false, configFile: false });
  const out: string[] = [];
  traverse(ast!, {
    enter(path: NodePath) {
      if (!ignorer(path)) return;
      out.push(code.slice(path.node.start!, path.node.end!));
      path.skip();
    },
  });
  return out;
}

describe('the planted-fault ignorer', () => {
  it('ignores the switch and the branch it alone opens, keeps the branch that runs', () => {
    expect(ignored(`const skip = faults.has('skipcount-ignored') ? 0 : Math.max(0, n);`)).toEqual(["faults.has('skipcount-ignored')", '0']);
    expect(ignored(`function f() { if (ctx.faults.has('push2master-noop')) return {}; work(); }`)).toEqual([
      "ctx.faults.has('push2master-noop')",
      'return {};',
    ]);
  });

  it('ignores a conjunction with a switch and the operands only it evaluates, keeps a real operand joined to a negated switch', () => {
    expect(ignored(`for (const x of xs) if (faults.has('a') && set.has(x)) continue;`)).toEqual([
      "faults.has('a') && set.has(x)",
      'continue;',
    ]);
    // `!F` is constant true: the switch goes, `a` and the `&&` between them stay (replacing `&&` changes what `a` decides).
    expect(ignored(`if (!qBool(req, 'm', true) && !faults.has('b')) { counts(); }`)).toEqual(["!faults.has('b')"]);
    expect(ignored(`const ok = a || faults.has('c') || b;`)).toEqual(["faults.has('c')"]);
  });

  it('follows a const bound to a switch into the code it guards, nested functions included', () => {
    // The declared name itself reads as the constant too: it carries no mutant, so nothing is lost.
    expect(ignored(`const stale = ctx.faults.has('d'); if (stale) { const f = () => 1; f(); } live();`)).toEqual([
      'stale',
      "ctx.faults.has('d')",
      'stale',
      '{ const f = () => 1; f(); }',
    ]);
  });

  it('knows the other names of the switch sets: switches and variations', () => {
    expect(ignored(`const key = switches.has('name-order-codepoint') ? v : v.toUpperCase();`)).toEqual([
      "switches.has('name-order-codepoint')",
      'v',
    ]);
    expect(ignored(`const style = variations.has('refusals-as-200') ? 'body' : 'status';`)).toEqual([
      "variations.has('refusals-as-200')",
      "'body'",
    ]);
  });

  it('leaves code without switches alone, and names that only look alike', () => {
    expect(ignored(`if (set.has(x)) { a(); } const y = other.faultsHas('x') ? 1 : 2; let v = faults; v = 1;`)).toEqual([]);
    // A `let` may change: it is not folded.
    expect(ignored(`let on = faults.has('e'); on = true; if (on) go();`)).toEqual(["faults.has('e')"]);
  });
});

describe('the refusal-details ignorer', () => {
  it("ignores a refusal's arguments, keeps the condition that decides whether it is made", () => {
    expect(ignored(`if (n > 255) throw new Refusal('INVALIDDATA', \`\${what}: too long\`, property);`, refusalDetail)).toEqual([
      "new Refusal('INVALIDDATA', `${what}: too long`, property)",
    ]);
    expect(ignored(`if (!found) reply(new RequestRefusal(undefined, 'no operation', undefined, 404, 'NOTFOUND'));`, refusalDetail)).toEqual(
      ["new RequestRefusal(undefined, 'no operation', undefined, 404, 'NOTFOUND')"],
    );
    expect(ignored(`if ('refused' in read) throw memberRefusal(path, read.refused);`, refusalDetail)).toEqual([
      'memberRefusal(path, read.refused)',
    ]);
  });

  it('leaves other constructors and calls alone, the refused value computed outside a refusal included', () => {
    expect(ignored(`const e = new Error('x'); const r = refusalOf(v) ? 'a' : 'b'; const m = new RefusalLike('x');`, refusalDetail)).toEqual(
      [],
    );
  });
});
