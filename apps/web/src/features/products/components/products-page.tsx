import { Button, Group, Select, Stack, Text, Title } from '@mantine/core';
import { IconDownload, IconPlus, IconUpload } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  PRODUCT_FIELDS,
  PRODUCT_SORTS,
  PRODUCTS_IMPORT_MAX_BYTES,
  type ImportProblem,
  type Product,
} from '@portal/contracts';
import { usePermissions } from '../../../app/session/use-permissions.ts';
import { confirmAction } from '../../../components/confirm-action.tsx';
import { CsvImportModal } from '../../../components/csv-import-modal.tsx';
import type { DataColumn } from '../../../components/data-table.tsx';
import { KeysetTable } from '../../../components/keyset-table.tsx';
import { ListToolbar } from '../../../components/list-toolbar.tsx';
import { EditDeleteActions } from '../../../components/row-actions.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { LOADED_BY_ROUTE, useKeysetList } from '../../../lib/use-keyset-list.ts';
import {
  useDeleteProductMutation,
  useExportProductsMutation,
  useImportProductsMutation,
} from '../api/products-mutations.ts';
import { productsQuery } from '../api/products-queries.ts';
import { productsFilter, type ProductsSearch } from '../products-search.ts';
import { productFieldText, productsErrorText, showProductsFailure } from '../products-text.ts';
import { formatPrice, useVatText } from './product-format.ts';
import { ProductFormModal } from './product-form-modal.tsx';

const route = getRouteApi('/app/products');

/** An import problem's text: the products' own wording of a code first, then the shared validation texts. */
const problemText = (problem: Pick<ImportProblem, 'code' | 'params'>): string =>
  productFieldText(problem.code, problem.params) ?? problem.code;

/**
 * /products: the company's catalogue for filling documents. Search and sort in the address; create, edit, delete and
 * CSV import with OUTBOX_MODIFY; CSV export for every reader (OUTBOX_CREATE: there is no products permission yet).
 */
export function ProductsPage() {
  const { t, i18n } = useTranslation('products');
  const api = useApi();
  const { can } = usePermissions();
  const canModify = can('OUTBOX_MODIFY');
  const search = route.useSearch();
  const filter = productsFilter(search);
  const navigate = useNavigate();
  const list = useKeysetList(useInfiniteQuery({ ...productsQuery(api, filter), ...LOADED_BY_ROUTE }));
  const [editing, setEditing] = useState<Product | 'new' | undefined>();
  const [importing, setImporting] = useState(false);
  const remove = useDeleteProductMutation();
  const exportCsv = useExportProductsMutation();
  const vatText = useVatText();

  const setSearch = (next: ProductsSearch) =>
    navigate({ to: '/products', search: { ...search, ...next }, replace: true });

  function confirmDelete(product: Product) {
    confirmAction({
      title: t('delete.title'),
      text: t('delete.text', { name: product.description }),
      confirmLabel: t('delete.confirm'),
      color: 'red',
      onConfirm: () =>
        remove.mutate(product.id, {
          onSuccess: () => showSuccess({ message: t('delete.done', { name: product.description }) }),
          onError: showProductsFailure,
        }),
    });
  }

  function onExport() {
    exportCsv.mutate(undefined, {
      onSuccess: () => showSuccess({ message: t('export.done') }),
      onError: showProductsFailure,
    });
  }

  const ltr = (value: string | null) => (value ? <span dir="ltr">{value}</span> : null);
  const columns: DataColumn<Product>[] = [
    {
      key: 'description',
      header: t('columns.description'),
      card: 'title',
      cell: (product) => (
        <Text fw={600} inherit>
          {product.description}
        </Text>
      ),
    },
    { key: 'gtin', header: t('columns.gtin'), cell: (product) => ltr(product.gtin) },
    {
      key: 'supplierArticleNumber',
      header: t('columns.supplierArticleNumber'),
      cell: (product) => ltr(product.supplierArticleNumber),
    },
    {
      key: 'buyerArticleNumber',
      header: t('columns.buyerArticleNumber'),
      cell: (product) => ltr(product.buyerArticleNumber),
    },
    { key: 'unit', header: t('columns.unit'), cell: (product) => ltr(product.unit) },
    {
      key: 'price',
      header: t('columns.price'),
      cell: (product) =>
        product.price === null ? t('notSet') : formatPrice(i18n.language, product.price, product.currency),
    },
    { key: 'vatRate', header: t('columns.vatRate'), cell: (product) => vatText(product.vatRate) },
  ];
  if (canModify)
    columns.push({
      key: 'actions',
      header: t('columns.actions'),
      hideHeader: true,
      card: 'actions',
      cell: (product) => (
        <EditDeleteActions
          editLabel={t('actions.edit', { name: product.description })}
          deleteLabel={t('actions.delete', { name: product.description })}
          onEdit={() => setEditing(product)}
          onDelete={() => confirmDelete(product)}
        />
      ),
    });

  return (
    <Stack gap="md" p={{ base: 'sm', sm: 'lg' }}>
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>{t('title')}</Title>
        <Group gap="sm">
          <Button
            variant="default"
            leftSection={<IconDownload size={18} aria-hidden />}
            loading={exportCsv.isPending}
            onClick={onExport}
          >
            {t('actions.export')}
          </Button>
          {canModify ? (
            <>
              <Button
                variant="default"
                leftSection={<IconUpload size={18} aria-hidden />}
                onClick={() => setImporting(true)}
              >
                {t('actions.import')}
              </Button>
              <Button leftSection={<IconPlus size={18} aria-hidden />} onClick={() => setEditing('new')}>
                {t('actions.add')}
              </Button>
            </>
          ) : null}
        </Group>
      </Group>
      <ListToolbar
        searchLabel={t('search')}
        search={search.search}
        onSearch={(value) => void setSearch({ search: value })}
      >
        <Select
          label={t('sort.label')}
          data={PRODUCT_SORTS.map((sort) => ({ value: sort, label: t(`sort.${sort}`) }))}
          value={filter.sort}
          allowDeselect={false}
          onChange={(value) => {
            // The default order (by description) stays out of the address.
            const sort = PRODUCT_SORTS.find((s) => s === value && s !== 'description');
            void setSearch({ sort });
          }}
          w={200}
        />
        <Select
          label={t('sort.orderLabel')}
          data={(['asc', 'desc'] as const).map((order) => ({ value: order, label: t(`sort.${order}`) }))}
          value={filter.order}
          allowDeselect={false}
          onChange={(value) => void setSearch({ order: value === 'desc' ? 'desc' : undefined })}
          w={160}
        />
      </ListToolbar>
      <KeysetTable
        list={list}
        columns={columns}
        rowKey={(product) => product.id}
        rowAttributes={(product) => ({ 'data-testid': `product-row-${product.description}` })}
        minWidth={900}
        aria-label={t('caption')}
        data-testid="products-table"
        emptyText={search.search ? t('noMatches') : t('empty')}
        states={{ placement: 'inline', errorText: productsErrorText }}
      />
      {editing ? (
        <ProductFormModal product={editing === 'new' ? undefined : editing} onClose={() => setEditing(undefined)} />
      ) : null}
      {importing ? (
        <CsvImportModal
          namespace="products"
          fields={PRODUCT_FIELDS}
          previewFields={['description', 'gtin', 'unit', 'price', 'vatRate']}
          maxBytes={PRODUCTS_IMPORT_MAX_BYTES}
          useUpload={useImportProductsMutation}
          problemText={problemText}
          errorText={productsErrorText}
          // A product's line may have several problems: each has its own id.
          problemTestId={(p) => `import-problem-${p.line}-${p.field}`}
          onClose={() => setImporting(false)}
        />
      ) : null}
    </Stack>
  );
}
