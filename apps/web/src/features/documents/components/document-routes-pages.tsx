import { Alert, Anchor, Modal, Stack, Title } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentDetail, DocumentDirection } from '@portal/contracts';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorText } from '../../../lib/error-text.ts';
import { documentQuery, documentsKeys } from '../api/documents-queries.ts';
import { validateDocumentsSearch, type DocumentsSearch } from '../documents-search.ts';
import { DocumentView, documentTitle } from './document-view.tsx';

const inboxDocument = getRouteApi('/app/documents/in/$id');
const outboxDocument = getRouteApi('/app/documents/out/$id');
const fullPage = getRouteApi('/app/documents/$id');

/** The document, and the lists refetched once it is loaded (an inbox copy opened the first time is Read now). */
function useDocument(id: string) {
  const api = useApi();
  const queryClient = useQueryClient();
  const query = useQuery(documentQuery(api, id));
  const loaded = query.isSuccess;
  useEffect(() => {
    if (loaded) void queryClient.invalidateQueries({ queryKey: documentsKeys.lists() });
  }, [loaded, queryClient]);
  return query;
}

function DocumentState({ query }: { query: ReturnType<typeof useDocument> }) {
  const { t } = useTranslation('documents');
  if (query.isPending) return <PageLoader />;
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {query.error instanceof ApiError && query.error.status === 404
          ? t('view.notFound')
          : errorText(query.error, 'documents')}
      </Alert>
    );
  return <DocumentView doc={query.data} />;
}

const titleOf = (t: ReturnType<typeof useTranslation<'documents'>>['t'], doc: DocumentDetail | undefined) =>
  doc ? documentTitle(t, doc) : t('view.tabs.document');

/** /documents/in/$id and /documents/out/$id: the document in a dialog over its list; closing goes back to the list. */
function DocumentModal({
  direction,
  id,
  search,
}: {
  direction: DocumentDirection;
  id: string;
  search: DocumentsSearch;
}) {
  const { t } = useTranslation('documents');
  const navigate = useNavigate();
  const query = useDocument(id);
  // Back to the list as it was: its filters and order stay in the address.
  const close = () => void navigate({ to: direction === 'in' ? '/documents/in' : '/documents/out', search });
  return (
    <Modal opened onClose={close} size="80rem" title={titleOf(t, query.data)} data-testid="document-modal">
      <Stack gap="sm">
        <Anchor size="sm" renderRoot={(props) => <Link {...props} to="/documents/$id" params={{ id }} />}>
          {t('view.openFullPage')}
        </Anchor>
        <DocumentState query={query} />
      </Stack>
    </Modal>
  );
}

export function InboxDocumentModal() {
  const raw = inboxDocument.useSearch();
  const search = useMemo(() => validateDocumentsSearch(raw), [raw]);
  return <DocumentModal direction="in" id={inboxDocument.useParams().id} search={search} />;
}

export function OutboxDocumentModal() {
  const raw = outboxDocument.useSearch();
  const search = useMemo(() => validateDocumentsSearch(raw), [raw]);
  return <DocumentModal direction="out" id={outboxDocument.useParams().id} search={search} />;
}

/** /documents/$id: the document as a page of its own (a shared or bookmarked link). */
export function DocumentPage() {
  const { t } = useTranslation('documents');
  const { id } = fullPage.useParams();
  const query = useDocument(id);
  const back = query.data?.direction === 'out' ? '/documents/out' : '/documents/in';
  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Anchor component={Link} to={back} size="sm">
        {t('view.backToList')}
      </Anchor>
      <Title order={1}>{titleOf(t, query.data)}</Title>
      <DocumentState query={query} />
    </Stack>
  );
}
