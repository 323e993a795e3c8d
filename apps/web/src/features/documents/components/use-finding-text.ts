import type { TFunction } from 'i18next';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { DocumentFinding, EdifactFinding } from '@portal/contracts';
import { findText } from '../../../i18n/dynamic-text.ts';
import { describeFinding } from '../../document-validation/index.ts';

/**
 * The words of a stored document's finding: an EDIFACT engine finding as the Document validation screen words it,
 * the store's own (a duplicate, a processing limit) from the documents catalog, and an unknown code as itself.
 */
export function useFindingText(): (finding: DocumentFinding) => string {
  const { i18n } = useTranslation(['documents', 'edifact']);
  return useCallback(
    (finding: DocumentFinding) => {
      if (finding.code.startsWith('EDI_')) {
        const translator = {
          t: i18n.getFixedT(null, 'edifact') as unknown as TFunction<'edifact'>,
          exists: (key: string) => i18n.exists(key, { ns: 'edifact' }),
          isolate: i18n.dir() === 'rtl',
        };
        // A stored finding keeps no byte offset; the words never use it.
        return describeFinding(translator, { ...finding, offset: 0 } as EdifactFinding);
      }
      return findText(`documents:view.findingCode.${finding.code}`, finding.params) ?? finding.code;
    },
    [i18n],
  );
}
