import { TagsInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isValidGln } from '@portal/contracts';

/**
 * Delivery point GLNs as tags. A GLN-13 with a wrong check digit (or not 13 digits) is refused as it is entered,
 * with a message naming it; the form's schema checks the list again.
 */
export function GlnTagsInput(props: {
  label: string;
  description?: string;
  value: string[];
  onChange: (glns: string[]) => void;
  error?: string;
}) {
  const { t } = useTranslation('user-management');
  const [rejected, setRejected] = useState<string | undefined>();
  return (
    <TagsInput
      label={props.label}
      description={props.description}
      value={props.value}
      dir="ltr"
      splitChars={[',', ' ', ';']}
      clearable
      acceptValueOnBlur
      onChange={(next) => {
        const cleaned = next.map((v) => v.trim()).filter(Boolean);
        const invalid = cleaned.find((v) => !isValidGln(v));
        setRejected(invalid);
        props.onChange([...new Set(cleaned.filter(isValidGln))]);
      }}
      error={rejected ? t('fieldErrors.glnValue', { value: rejected }) : props.error}
      data-testid="gln-input"
    />
  );
}
