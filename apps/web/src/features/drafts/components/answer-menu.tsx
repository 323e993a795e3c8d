import { Button, Menu } from '@mantine/core';
import { IconArrowBackUp, IconChevronDown } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { DraftKind } from '@portal/contracts';
import { useCreateDraftMutation } from '../api/drafts-queries.ts';

/** What each received kind is answered with (turnaround), as the server's TURNAROUNDS. */
const ANSWERS: Partial<Record<string, DraftKind[]>> = {
  order: ['order_response', 'despatch_advice', 'invoice'],
  despatch_advice: ['invoice', 'receiving_advice'],
  invoice: ['credit_note'],
};

/** "Answer" on a document: a new draft of the answering kind with its parties, references and lines carried over. */
export function AnswerMenu({ documentId, kind }: { documentId: string; kind: string }) {
  const { t, ready } = useTranslation('drafts');
  const navigate = useNavigate();
  const create = useCreateDraftMutation();
  const answers = ANSWERS[kind];
  if (!ready || !answers) return null;
  const start = async (answer: DraftKind) => {
    const draft = await create.mutateAsync({ kind: answer, sourceDocumentId: documentId });
    void navigate({ to: '/drafts/$id', params: { id: draft.id } });
  };
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="light"
          leftSection={<IconArrowBackUp size={18} aria-hidden />}
          rightSection={<IconChevronDown size={16} aria-hidden />}
          loading={create.isPending}
          aria-label={t('answer.label')}
          data-testid="answer-document"
        >
          {t('answer.open')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        {answers.map((answer) => (
          <Menu.Item key={answer} onClick={() => void start(answer)} data-testid={`answer-${answer}`}>
            {t('answer.as', { kind: t(`kinds.${answer}`) })}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
