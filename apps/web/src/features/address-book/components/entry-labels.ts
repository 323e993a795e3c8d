import { useTranslation } from 'react-i18next';
import { PERSON_TYPES, RESIDENCE_TYPES, type PersonType, type ResidenceType } from '@portal/contracts';

/** The choices of person type and residence type, worded in the reader's language with their codes. */
export function useEntryChoices() {
  const { t } = useTranslation('address-book');
  return {
    personTypes: PERSON_TYPES.map((code) => ({ value: code, label: t(`personTypes.${code}`) })),
    residenceTypes: RESIDENCE_TYPES.map((code) => ({ value: code, label: t(`residenceTypes.${code}`) })),
    personType: (code: PersonType) => t(`personTypes.${code}`),
    residenceType: (code: ResidenceType | null) => (code ? t(`residenceTypes.${code}`) : t('notSet')),
  };
}
