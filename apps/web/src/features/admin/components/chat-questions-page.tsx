import type { ReactElement } from 'react';
import { Badge, Checkbox, Group, List, Select, Stack, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useTranslation } from 'react-i18next';
import type { AdminChatItem } from '@portal/contracts';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import { CHAT_FEEDBACK_FILTERS, type ChatFeedbackFilter, type ChatSearch } from '../admin-search.ts';
import { chatQuestionsQuery } from '../api/admin-queries.ts';
import { AdminPage, useAdminListStates } from './admin-page.tsx';

const route = getRouteApi('/admin/chat');

function isFeedbackFilter(value: string | null): value is ChatFeedbackFilter {
  return (CHAT_FEEDBACK_FILTERS as readonly (string | null)[]).includes(value);
}

/** A long text in a cell: a few lines, all of it in the phone card and on hover. */
function LongText({ text }: { text: string }) {
  return (
    <Text size="sm" lineClamp={4} title={text} dir="auto" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {text}
    </Text>
  );
}

function FeedbackBadge({ item }: { item: AdminChatItem }) {
  const { t } = useTranslation('admin');
  if (!item.feedback) {
    return (
      <Text size="sm" c="gray.7">
        {t('chat.noFeedback')}
      </Text>
    );
  }
  return (
    <Badge variant="dot" color={item.feedback.isPositive ? 'green' : 'red'} data-testid="chat-feedback">
      {t(item.feedback.isPositive ? 'chat.helpful' : 'chat.notHelpful')}
    </Badge>
  );
}

/**
 * The AI assistant's questions (issue 15), newest first: each with its answer, the articles it rests on, the model
 * and the feedback. The filters find where the help fell short: negative feedback, and no answer found.
 */
export function ChatQuestionsPage(): ReactElement {
  const { t, i18n } = useTranslation('admin');
  const listStates = useAdminListStates();
  const api = useApi();
  const search = route.useSearch();
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...chatQuestionsQuery(api, search), ...LOADED_BY_ROUTE }));
  const setSearch = (next: ChatSearch) =>
    navigate({
      to: '/admin/chat',
      search: Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as ChatSearch,
      replace: true,
    });

  const columns: DataColumn<AdminChatItem>[] = [
    {
      key: 'date',
      header: t('chat.columns.date'),
      cellProps: { style: { whiteSpace: 'nowrap' } },
      cell: (item) => formatDateTime(i18n.language, item.askedAt),
    },
    {
      key: 'question',
      header: t('chat.columns.question'),
      card: 'title',
      cellProps: { miw: 200 },
      cell: (item) => <LongText text={item.question} />,
    },
    {
      key: 'answer',
      header: t('chat.columns.answer'),
      cellProps: { miw: 260 },
      cell: (item) => (
        <Stack gap={4}>
          {item.answered ? null : (
            <Badge variant="light" color="orange" c="orange.9" data-testid="chat-no-answer">
              {t('chat.noAnswer')}
            </Badge>
          )}
          <LongText text={item.response} />
        </Stack>
      ),
    },
    {
      key: 'sources',
      header: t('chat.columns.sources'),
      cell: (item) =>
        item.sources.length ? (
          <List size="sm" spacing={2}>
            {item.sources.map((source) => (
              <List.Item key={source.articleId}>{source.title}</List.Item>
            ))}
          </List>
        ) : (
          '—'
        ),
    },
    { key: 'model', header: t('chat.columns.model'), cell: (item) => item.model ?? '—' },
    { key: 'feedback', header: t('chat.columns.feedback'), cell: (item) => <FeedbackBadge item={item} /> },
    {
      key: 'comment',
      header: t('chat.columns.comment'),
      cell: (item) => (item.feedback?.comment ? <LongText text={item.feedback.comment} /> : '—'),
    },
    {
      key: 'from',
      header: t('chat.columns.from'),
      cell: (item) => (
        <>
          <Text size="sm">{item.userEmail ?? '—'}</Text>
          <Text size="sm" c="gray.7">
            {item.companyName ?? ''}
          </Text>
        </>
      ),
    },
  ];

  return (
    <AdminPage title={t('chat.title')} description={t('chat.description')}>
      <Group align="flex-end" gap="md" wrap="wrap">
        <Select
          label={t('chat.feedback')}
          placeholder={t('chat.all')}
          clearable
          data={CHAT_FEEDBACK_FILTERS.map((value) => ({ value, label: t(`chat.feedbackOptions.${value}`) }))}
          value={search.feedback ?? null}
          onChange={(value) => setSearch({ ...search, feedback: isFeedbackFilter(value) ? value : undefined })}
          w={{ base: '100%', xs: 240 }}
        />
        <Checkbox
          label={t('chat.unanswered')}
          checked={search.unanswered === true}
          onChange={(event) => setSearch({ ...search, unanswered: event.currentTarget.checked || undefined })}
          mb={8}
        />
      </Group>
      <KeysetTable
        list={list}
        {...listStates}
        columns={columns}
        rowKey={(item) => item.messageId}
        minWidth={1100}
        aria-label={t('chat.title')}
        data-testid="chat-questions-table"
      />
    </AdminPage>
  );
}
