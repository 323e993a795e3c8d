import { describe, expect, it } from 'vitest';
import { ChatExplainRequestSchema } from '@portal/contracts';
import { explainBody, helpLabels } from './chat-api.ts';

describe('helpLabels', () => {
  it("puts the user's language's collection first: Polish for Polish, English otherwise", () => {
    expect(helpLabels('pl')).toEqual(['portal-help-pl', 'portal-help-en']);
    expect(helpLabels('pl-PL')).toEqual(['portal-help-pl', 'portal-help-en']);
    expect(helpLabels('en')).toEqual(['portal-help-en', 'portal-help-pl']);
    expect(helpLabels('ar')).toEqual(['portal-help-en', 'portal-help-pl']);
  });
});

describe('explainBody', () => {
  it('keeps a finding within the contract: long values cut, an unknown level left out', () => {
    const body = explainBody({
      finding: {
        code: 'duplicate_document',
        severity: 'error',
        level: 'store',
        path: '',
        expected: 'x'.repeat(500),
        line: 3,
        column: -1,
        params: Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`p${i}`, i])),
      },
      language: 'pl',
      conversationId: null,
    });
    expect(body.finding).not.toHaveProperty('level');
    expect(body.finding).not.toHaveProperty('column');
    expect(body.finding.expected).toHaveLength(200);
    expect(Object.keys(body.finding.params ?? {})).toHaveLength(20);
    expect(ChatExplainRequestSchema.safeParse(body).success).toBe(true);
  });
});
