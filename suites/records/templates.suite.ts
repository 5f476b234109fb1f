/**
 * The template record (contract 2.7) as getTemplates lists it: the template tags of the fixture's templates, which the
 * suite only reads.
 *
 * Where tests go (test/suites.test.ts): suites/records is grouped by how its tests judge, not by family: the target's own
 * records read against what contract 2 says they hold, whatever the requirement.
 */
import { finding, type Finding } from '../../harness/checks.ts';
import { brief } from '../../harness/oracles.ts';
import { conformance } from '../../harness/suite.ts';
import { isRecord } from '../../harness/rules/answer.ts';

conformance(
  'FLD-08',
  'every template tag of the templates getTemplates lists says whether it is mandatory and editable in the page',
  async (t) => {
    const folderId = t.fixture.templatesFolderId;
    if (folderId === undefined) return t.nothingToJudge('the fixture names no templates folder');
    const r = await t.call('folder.getTemplates', { path: { folderId }, query: { recursive: true } });
    if (!r.body) return;
    // Contract 2.7: "templateTags: map string to Tag (each with the additional booleans mandatory and editableInPage)". Whether a tag
    // carries them where the template does not set them is open (template-tag-booleans-carried): each one a tag carries is a boolean.
    const problems: string[] = [];
    let tags = 0;
    let carried = 0;
    for (const template of r.body.templates ?? []) {
      for (const [name, tag] of Object.entries(isRecord(template.templateTags) ? template.templateTags : {})) {
        tags++;
        const present = (['mandatory', 'editableInPage'] as const).filter((m) => isRecord(tag) && tag[m] !== undefined);
        carried += present.length;
        const wrong = present.filter((m) => typeof (tag as Record<string, unknown>)[m] !== 'boolean');
        if (wrong.length)
          problems.push(
            `template ${JSON.stringify(template.id)} tag "${name}": ${wrong.map((m) => `${m} ${JSON.stringify((tag as Record<string, unknown>)[m])}`).join(', ')}`,
          );
      }
    }
    if (!tags) return t.nothingToJudge(`the templates of folder ${folderId} have no template tags`, r.exchange);
    if (!carried) return t.nothingToJudge(`no template tag of folder ${folderId} carries mandatory or editableInPage`, r.exchange);
    const findings: Finding[] = problems.length
      ? [
          finding(
            t.requirement,
            'record',
            `getTemplates of folder ${folderId}: ${problems.length} of ${tags} template tags carry mandatory or editableInPage as no boolean: ${brief(problems, 5)}`,
            r.exchange,
          ),
        ]
      : [];
    t.record(findings);
  },
  { operation: 'folder.getTemplates' },
);
