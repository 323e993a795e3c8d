import {
  Accordion,
  Anchor,
  Badge,
  Center,
  Divider,
  Group,
  List,
  Loader,
  Modal,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconMail, IconSearch } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HELP_ARTICLE_GROUPS, HELP_GROUPS } from '@portal/contracts';
import { searchArticles, useHelpArticles, type HelpArticle } from '../api/help-articles.ts';

/** A body: paragraphs separated by blank lines, lines starting with "- " form a list. */
function ArticleBody({ body }: { body: string }) {
  const blocks = body.split(/\n\s*\n/).filter((block) => block.trim());
  return (
    <Stack gap="xs">
      {blocks.map((block, index) => {
        const lines = block.split('\n').filter((line) => line.trim());
        if (lines.every((line) => line.startsWith('- '))) {
          return (
            <List key={index} size="sm" spacing={4}>
              {lines.map((line, i) => (
                <List.Item key={i}>{line.slice(2)}</List.Item>
              ))}
            </List>
          );
        }
        return (
          <Text key={index} size="sm">
            {block}
          </Text>
        );
      })}
    </Stack>
  );
}

function Article({ article }: { article: HelpArticle }) {
  const { t } = useTranslation('help');
  return (
    <Accordion.Item value={article.id} data-testid={`help-article-${article.id}`}>
      <Accordion.Control>
        <Text fw={600}>{article.title}</Text>
        <Text size="sm" c="dimmed">
          {article.summary}
        </Text>
      </Accordion.Control>
      <Accordion.Panel>
        {article.bodyInEnglish ? (
          <Badge variant="light" color="gray" mb="xs">
            {t('bodyInEnglish')}
          </Badge>
        ) : null}
        <div lang={article.bodyInEnglish ? 'en' : undefined}>
          <ArticleBody body={article.body} />
        </div>
      </Accordion.Panel>
    </Accordion.Item>
  );
}

/**
 * The help dialog (description, section 2): articles about each area of the portal, searchable, and the support
 * contact. `canReportIssue` adds the link to the report form; `article` opens the dialog at that article (a source
 * of an AI assistant's answer), expanded and scrolled into view.
 */
export function HelpDialog({
  opened,
  onClose,
  canReportIssue,
  article,
}: {
  opened: boolean;
  onClose: () => void;
  canReportIssue: boolean;
  article?: string | undefined;
}) {
  const { t, ready: textsReady } = useTranslation('help');
  const phone = useMediaQuery('(max-width: 48em)');
  const { articles, ready } = useHelpArticles();
  const [query, setQuery] = useState('');
  const found = searchArticles(articles, query);
  // The expanded article: the requested one until the user opens another (a new request starts over).
  const [expanded, setExpanded] = useState<{ for: string | undefined; value: string | null }>({
    for: article,
    value: article ?? null,
  });
  const expandedValue = expanded.for === article ? expanded.value : (article ?? null);

  useEffect(() => {
    if (!article || !ready) return;
    const testId = `help-article-${article}`;
    const item = Array.from(document.querySelectorAll('[data-testid^="help-article-"]')).find(
      (element) => element.getAttribute('data-testid') === testId,
    );
    item?.scrollIntoView({ block: 'start' });
  }, [article, ready]);

  // Opened by a direct load of /help, the dialog comes before its namespace: no title or close label read too early.
  if (!textsReady) return null;

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      size="xl"
      fullScreen={phone}
      title={t('title')}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-xl)' } }}
      closeButtonProps={{ 'aria-label': t('close') }}
      data-testid="help-dialog"
    >
      {!ready ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <Stack gap="md">
          <Text c="dimmed">{t('lead')}</Text>
          <TextInput
            type="search"
            label={t('search')}
            placeholder={t('searchPlaceholder')}
            leftSection={<IconSearch size={16} aria-hidden />}
            value={query}
            onChange={(event) => setQuery(event.currentTarget.value)}
            data-autofocus
          />
          <Text size="sm" c="dimmed" aria-live="polite">
            {found.length === 0 ? t('noResults', { query }) : t('results', { count: found.length })}
          </Text>
          {found.length === 0 ? null : query.trim() ? (
            // A search's results in the order of their relevance.
            <Accordion
              variant="separated"
              chevronPosition="right"
              value={expandedValue}
              onChange={(value) => setExpanded({ for: article, value })}
            >
              {found.map((article) => (
                <Article key={article.id} article={article} />
              ))}
            </Accordion>
          ) : (
            // Without a search, the articles under their groups: screens, documents and statuses, EDIFACT findings.
            HELP_GROUPS.map((group) => {
              const inGroup = found.filter((a) => HELP_ARTICLE_GROUPS[a.id] === group);
              if (inGroup.length === 0) return null;
              return (
                <Stack key={group} gap="xs" component="section" aria-labelledby={`help-group-${group}`}>
                  <Title order={3} size="h5" id={`help-group-${group}`}>
                    {t(`groups.${group}`)}
                  </Title>
                  <Accordion
                    variant="separated"
                    chevronPosition="right"
                    value={inGroup.some((a) => a.id === expandedValue) ? expandedValue : null}
                    onChange={(value) => setExpanded({ for: article, value })}
                  >
                    {inGroup.map((article) => (
                      <Article key={article.id} article={article} />
                    ))}
                  </Accordion>
                </Stack>
              );
            })
          )}
          <Divider />
          <Paper withBorder p="md" radius="md" component="section" aria-labelledby="help-contact-title">
            <Title order={3} size="h4" id="help-contact-title">
              {t('contact.title')}
            </Title>
            <Text size="sm" mt={4}>
              {t('contact.text')}
            </Text>
            <Group gap="lg" mt="sm">
              <Group gap={6}>
                <IconMail size={18} aria-hidden />
                <Text span size="sm" c="dimmed">
                  {t('contact.emailLabel')}:
                </Text>
                <Anchor href={`mailto:${t('contact.email')}`} size="sm">
                  {t('contact.email')}
                </Anchor>
              </Group>
              {canReportIssue ? (
                <Anchor component={Link} to="/report-issue" size="sm" fw={600}>
                  {t('contact.reportIssue')}
                </Anchor>
              ) : null}
            </Group>
          </Paper>
        </Stack>
      )}
    </Modal>
  );
}
