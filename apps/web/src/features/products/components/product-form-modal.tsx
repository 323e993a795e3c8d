import { zodResolver } from '@hookform/resolvers/zod';
import { Modal, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  DEFAULT_CURRENCY,
  DEFAULT_UNIT,
  PRODUCT_FIELDS,
  ProductRequestSchema,
  type Product,
  type ProductField,
  type ProductRequest,
  type ProductValues,
} from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';
import { showSuccess } from '../../../lib/notify.ts';
import { useSaveProductMutation } from '../api/products-mutations.ts';
import { productFieldText, showProductSaveFailure } from '../products-text.ts';

/** The fields the form explains under their labels (`hints.<field>`). */
const HINTED = ['gtin', 'unit', 'price', 'currency', 'vatRate'] as const;
const isHinted = (name: ProductField): name is (typeof HINTED)[number] => (HINTED as readonly string[]).includes(name);

function toForm(product: Product | undefined): ProductRequest {
  return {
    gtin: product?.gtin ?? '',
    supplierArticleNumber: product?.supplierArticleNumber ?? '',
    buyerArticleNumber: product?.buyerArticleNumber ?? '',
    description: product?.description ?? '',
    unit: product?.unit ?? DEFAULT_UNIT,
    price: product?.price ?? '',
    currency: product?.currency ?? DEFAULT_CURRENCY,
    vatRate: product?.vatRate ?? '',
  };
}

/**
 * Creates or edits a product, checked by the contracts' schema as the server checks it (GTIN length and GS1 check
 * digit, unit and currency codes, the price's digits, the VAT rate or zw/np); what the server still refuses (a GTIN
 * already in the catalogue) lands on its field.
 */
export function ProductFormModal({ product, onClose }: { product?: Product; onClose: () => void }) {
  const { t } = useTranslation('products');
  const save = useSaveProductMutation();
  const form = useForm<ProductRequest, unknown, ProductValues>({
    resolver: zodResolver(ProductRequestSchema),
    defaultValues: toForm(product),
    mode: 'onTouched',
  });
  const { errors } = form.formState;

  function onValid(values: ProductValues) {
    save.mutate(
      { productId: product?.id, product: values },
      {
        onSuccess: (saved) => {
          showSuccess({ message: t('form.saved', { name: saved.description }) });
          onClose();
        },
        onError: (failure) => showProductSaveFailure(failure, PRODUCT_FIELDS, form.setError),
      },
    );
  }

  const field = (
    name: ProductField,
    extra: { required?: boolean; ltr?: boolean; inputMode?: 'numeric' | 'decimal' } = {},
  ) => (
    <TextInput
      label={t(`fields.${name}`)}
      description={isHinted(name) ? t(`hints.${name}`) : undefined}
      required={extra.required}
      autoComplete="off"
      inputMode={extra.inputMode}
      dir={extra.ltr ? 'ltr' : undefined}
      error={productFieldText(errors[name]?.message)}
      data-autofocus={name === 'description' ? true : undefined}
      {...form.register(name)}
    />
  );

  return (
    <Modal
      opened
      onClose={onClose}
      title={product ? t('form.editTitle', { name: product.description }) : t('form.createTitle')}
      size="xl"
    >
      <form noValidate onSubmit={form.handleSubmit(onValid)}>
        <Stack gap="md">
          {field('description', { required: true })}
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            {field('gtin', { ltr: true, inputMode: 'numeric' })}
            {field('supplierArticleNumber', { ltr: true })}
            {field('buyerArticleNumber', { ltr: true })}
          </SimpleGrid>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            {field('unit', { ltr: true, required: true })}
            {field('price', { ltr: true, inputMode: 'decimal' })}
            {field('currency', { ltr: true, required: true })}
            {field('vatRate', { ltr: true })}
          </SimpleGrid>
          <FormActions onCancel={onClose} saving={save.isPending} />
        </Stack>
      </form>
    </Modal>
  );
}
