import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/**
 * Cancel and submit under a dialog's form; the submit label defaults to Save. Without `onSubmit` the button submits
 * the form around it; with it (a dialog that is no form) the button calls it.
 */
export function FormActions(props: {
  onCancel: () => void;
  saving: boolean;
  submitLabel?: string;
  onSubmit?: () => void;
}) {
  const { t } = useTranslation('common');
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onCancel}>
        {t('cancel')}
      </Button>
      <Button type={props.onSubmit ? 'button' : 'submit'} onClick={props.onSubmit} loading={props.saving}>
        {props.submitLabel ?? t('save')}
      </Button>
    </Group>
  );
}
