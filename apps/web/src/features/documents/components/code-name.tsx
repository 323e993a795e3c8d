import { Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { DocumentCodes } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { codesQuery } from '../api/document-files.ts';

/** A code's name from the directory: undefined while loading, when the directory is missing or the code unknown. */
export type CodeNames = (element: string, code: string | undefined) => string | undefined;

/** The names of a document's codes and segments (decision 0026); the view shows codes without names until then. */
export function useDocumentCodes(id: string): { codes: DocumentCodes | undefined; nameOf: CodeNames } {
  const api = useApi();
  const { data } = useQuery(codesQuery(api, id));
  return {
    codes: data,
    nameOf: (element, code) => (code && data ? data.codeNames[element]?.[code] : undefined),
  };
}

/** `220 · Order`: a code and its meaning from the directory, or the code alone. */
export function codeText(code: string, name: string | undefined): string {
  return name ? `${code} · ${name}` : code;
}

/** A code with its directory name, dimmed, beside a label (the code reads left to right in Arabic too). */
export function CodeHint({ code, name }: { code: string; name: string | undefined }) {
  return (
    <Text span size="xs" c="dimmed" display="block" data-testid="code-hint">
      <span dir="ltr">{code}</span>
      {name ? ` · ${name}` : ''}
    </Text>
  );
}
