import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ProductSchema, ProductsImportResultSchema, type ProductValues } from '@portal/contracts';
import { useSession } from '../../../app/session/session-context.tsx';
import { useApi } from '../../../lib/api-context.tsx';
import { attachmentFilename, saveBlob, sendAuthorized, sendAuthorizedJson } from '../../../lib/api-files.ts';
import { productsKeys } from './products-queries.ts';

const id = (value: string) => encodeURIComponent(value);

function useInvalidateProducts() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: productsKeys.all });
}

/** Creates a product, or replaces one when `productId` is given. */
export function useSaveProductMutation() {
  const api = useApi();
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ productId, product }: { productId?: string; product: ProductValues }) =>
      productId
        ? api.put(`/products/${id(productId)}`, ProductSchema, product)
        : api.post('/products', ProductSchema, product),
    onSuccess: invalidate,
  });
}

export function useDeleteProductMutation() {
  const api = useApi();
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: (productId: string) => api.delete(`/products/${id(productId)}`),
    onSuccess: invalidate,
  });
}

/**
 * Sends a CSV file to the import: with `dryRun` the server only checks it and answers the preview with every problem;
 * without, it saves all rows or none (and answers the problems again if the file no longer passes).
 */
export function useImportProductsMutation() {
  const session = useSession();
  const invalidate = useInvalidateProducts();
  return useMutation({
    mutationFn: ({ file, dryRun }: { file: File; dryRun: boolean }) => {
      const form = new FormData();
      form.append('file', file, file.name);
      return sendAuthorizedJson(
        session,
        `/products/import${dryRun ? '?dryRun=true' : ''}`,
        ProductsImportResultSchema,
        {
          method: 'POST',
          body: form,
        },
      );
    },
    onSuccess: (result) => (result.created > 0 ? invalidate() : undefined),
  });
}

/** Downloads every product as CSV. */
export function useExportProductsMutation() {
  const session = useSession();
  return useMutation({
    mutationFn: async () => {
      const response = await sendAuthorized(session, '/products/export', { headers: { Accept: 'text/csv' } });
      saveBlob(await response.blob(), attachmentFilename(response.headers.get('content-disposition'), 'products.csv'));
    },
  });
}
