/**
 * The merge rules of a space as the sandbox judges them (mergeRulesFailure): reviews are not
 * modelled, the merge is the review — by whoever merges, unless they wrote the change request.
 */
import { describe, expect, it } from 'vitest';
import type { MergeRule } from '../../src/contract/spaces.js';
import { mergeRulesFailure, type MergeFacts } from '../../src/server/change-requests/model.js';

/** u-rev merges change request 3 of sp-1, written by u-author; it is up to date, with a subject and a description. */
const facts = (over: Partial<MergeFacts> = {}): MergeFacts => ({
  space: 'sp-1',
  number: 3,
  merger: 'u-rev',
  author: 'u-author',
  outdated: false,
  subject: 'Fix',
  described: true,
  ...over,
});
const judge = (rules: MergeRule[], over?: Partial<MergeFacts>) => mergeRulesFailure(rules, facts(over));
const byAuthor = { merger: 'u-author' };

describe('merge rules in the sandbox', () => {
  it('no rules: nothing to meet', () => {
    expect(judge([])).toBeUndefined();
    expect(judge([], byAuthor)).toBeUndefined();
  });

  it('require_specific_reviewers: every user listed reviews, and the merge is the only review', () => {
    const one: MergeRule = { rule: 'require_specific_reviewers', users: ['u-rev'] };
    expect(judge([one])).toBeUndefined();
    expect(judge([one], { merger: 'u-other' })).toBe(
      'space sp-1 requires a review by u-rev to merge (mergeRules require_specific_reviewers): the merge is the review, so only u-rev may merge',
    );
    // The author listed as the reviewer: their own merge is no review.
    expect(judge([{ rule: 'require_specific_reviewers', users: ['u-author'] }], byAuthor)).toBe(
      'space sp-1 requires a review by u-author to merge (mergeRules require_specific_reviewers): the merge is the review, and the author (u-author) does not review their own change request',
    );
    // Two users: one merge cannot be two reviews.
    const two: MergeRule = { rule: 'require_specific_reviewers', users: ['u-rev', 'u-other'] };
    expect(judge([two])).toBe(
      'space sp-1 requires a review by u-rev and u-other to merge (mergeRules require_specific_reviewers): the merge is the only review in the sandbox, so only a user the rules allow to bypass them (allow_bypass) may merge',
    );
    expect(judge([{ rule: 'require_specific_reviewers', users: ['u-rev', 'u-rev'] }])).toBeUndefined();
    expect(judge([{ rule: 'require_specific_reviewers', users: [] }])).toBeUndefined();
  });

  it('require_one_of_specific_reviewers: the merger is one of them, and not the author', () => {
    const rule: MergeRule = { rule: 'require_one_of_specific_reviewers', users: ['u-other', 'u-rev'] };
    expect(judge([rule])).toBeUndefined();
    expect(judge([rule], { merger: 'u-third' })).toBe(
      'space sp-1 requires a review by one of u-other, u-rev to merge (mergeRules require_one_of_specific_reviewers): the merge is the review, so one of them must merge',
    );
    expect(judge([rule], { merger: 'u-rev', author: 'u-rev' })).toMatch(/does not review their own change request$/);
  });

  it('require_at_least_one_review and require_at_least_one_approved_review: someone other than the author merges', () => {
    for (const name of ['require_at_least_one_review', 'require_at_least_one_approved_review'] as const) {
      expect(judge([{ rule: name }])).toBeUndefined();
      expect(judge([{ rule: name }], byAuthor)).toMatch(
        new RegExp(
          `^space sp-1 requires an? (approved )?review to merge \\(mergeRules ${name}\\): the merge is the review, and the author \\(u-author\\) does not review their own change request, so someone else must merge$`,
        ),
      );
    }
  });

  it('require_all_reviews_approved is always met: the only review, the merge, approves', () => {
    expect(judge([{ rule: 'require_all_reviews_approved' }])).toBeUndefined();
    expect(judge([{ rule: 'require_all_reviews_approved' }], byAuthor)).toBeUndefined();
  });

  it('require_agent_review is never met: the sandbox runs no agents', () => {
    expect(judge([{ rule: 'require_agent_review' }])).toBe(
      'space sp-1 requires a review by the agent to merge (mergeRules require_agent_review): the sandbox runs no agents, so only a user the rules allow to bypass them (allow_bypass) may merge',
    );
  });

  it('rules on the change request itself: up to date, a subject, a description', () => {
    const upToDate: MergeRule = { rule: 'require_up_to_date_change_request' };
    expect(judge([upToDate])).toBeUndefined();
    expect(judge([upToDate], { outdated: true })).toBe(
      'change request 3 is not up to date with space sp-1 (mergeRules require_up_to_date_change_request): update it first (docsctl cr update sp-1 3)',
    );
    const subject: MergeRule = { rule: 'require_change_request_subject' };
    expect(judge([subject])).toBeUndefined();
    expect(judge([subject], { subject: '  ' })).toMatch(/^change request 3 has no subject \(mergeRules require_change_request_subject\)/);
    const description: MergeRule = { rule: 'require_change_request_description' };
    expect(judge([description])).toBeUndefined();
    expect(judge([description], { described: false })).toMatch(/^change request 3 has no description \(mergeRules require_change_request_description\)/);
  });

  it('require_author_to_merge: only the author merges', () => {
    const rule: MergeRule = { rule: 'require_author_to_merge' };
    expect(judge([rule], byAuthor)).toBeUndefined();
    expect(judge([rule])).toBe('only the author of change request 3 (u-author) may merge it (mergeRules require_author_to_merge)');
    // With a review rule too, nobody meets both: the author's merge is no review.
    expect(judge([rule, { rule: 'require_at_least_one_review' }], byAuthor)).toMatch(/require_at_least_one_review/);
    expect(judge([rule, { rule: 'require_at_least_one_review' }])).toMatch(/require_author_to_merge/);
  });

  it('custom: the sandbox cannot evaluate an expression, so the rule is never met; its message says why', () => {
    expect(judge([{ rule: 'custom', expression: 'changeRequest.subject.startsWith("DOC-")', message: 'The subject must start with DOC-' }])).toBe(
      'The subject must start with DOC- (mergeRules custom): the sandbox cannot evaluate its expression (changeRequest.subject.startsWith("DOC-")), so only a user the rules allow to bypass them (allow_bypass) may merge',
    );
    expect(judge([{ rule: 'custom', expression: 'true' }])).toMatch(/^a custom merge rule does not allow this merge \(mergeRules custom\)/);
  });

  it('names every rule that fails, in order; allow_bypass users skip them all', () => {
    const rules: MergeRule[] = [
      { rule: 'require_agent_review' },
      { rule: 'require_change_request_subject' },
      { rule: 'require_up_to_date_change_request' },
      { rule: 'allow_bypass', users: ['u-lead'] },
    ];
    const failure = judge(rules, { subject: '', outdated: true })!;
    expect(failure.split('; ').map((part) => /\(mergeRules (\w+)\)/.exec(part)?.[1])).toEqual([
      'require_agent_review',
      'require_change_request_subject',
      'require_up_to_date_change_request',
    ]);
    expect(judge(rules, { merger: 'u-lead', subject: '', outdated: true })).toBeUndefined();
    // Being listed to bypass is not being the author or a reviewer: others still meet the rules or not.
    expect(judge([{ rule: 'allow_bypass', users: ['u-lead'] }, { rule: 'require_author_to_merge' }])).toMatch(/require_author_to_merge/);
  });
});
