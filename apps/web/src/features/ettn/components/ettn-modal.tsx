import { Alert, Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../../components/page-loader.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { ApiError } from '../../../lib/api-error.ts';
import { errorText } from '../../../lib/error-text.ts';
import { ettnViewQuery } from '../api/ettn-queries.ts';
import { validateEttnSearch, type EttnListKind, type EttnSearch } from '../ettn-search.ts';
import { EttnView, ettnTitle } from './ettn-view.tsx';

const registeredNote = getRouteApi('/app/ettn/$id');
const pendingNote = getRouteApi('/app/ettn/pending/$id');

/** The refusal's text: the e-TTN code's (`errors:ettn.<n>`) when there is one, else "not found" or the generic one. */
function failureText(error: unknown, notFound: string): string {
  if (error instanceof ApiError && error.status === 404 && !error.code.startsWith('ettn.')) return notFound;
  return errorText(error, 'ettn');
}

/** /ettn/$id and /ettn/pending/$id: the note in a dialog over its list; closing goes back to the list as it was. */
function EttnModal({ kind, id, search }: { kind: EttnListKind; id: string; search: EttnSearch }) {
  const { t, i18n } = useTranslation('ettn');
  const api = useApi();
  const navigate = useNavigate();
  const query = useQuery(ettnViewQuery(api, id, kind === 'pending', i18n.language));
  const close = () => void navigate({ to: kind === 'pending' ? '/ettn/pending' : '/ettn', search });
  return (
    <Modal
      opened
      onClose={close}
      size="70rem"
      title={ettnTitle(t, query.data?.number ?? null)}
      data-testid="ettn-modal"
    >
      {query.isPending ? <PageLoader /> : null}
      {query.isError ? (
        <Alert color="red" role="alert" data-testid="ettn-view-error">
          {failureText(query.error, t('view.notFound'))}
        </Alert>
      ) : null}
      {query.data ? (
        <EttnView
          view={query.data}
          // A sent upload is a registered note now: it opens in its place among the registered ones.
          onSent={(processId) => void navigate({ to: '/ettn/$id', params: { id: processId }, search })}
        />
      ) : null}
    </Modal>
  );
}

export function EttnRegisteredModal() {
  const raw = registeredNote.useSearch();
  const search = useMemo(() => validateEttnSearch(raw), [raw]);
  return <EttnModal kind="registered" id={registeredNote.useParams().id} search={search} />;
}

export function EttnPendingModal() {
  const raw = pendingNote.useSearch();
  const search = useMemo(() => validateEttnSearch(raw), [raw]);
  return <EttnModal kind="pending" id={pendingNote.useParams().id} search={search} />;
}
