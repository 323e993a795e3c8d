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
      <Button
        type={props.onSubmit ? 'button' : 'submit'}
        onClick={props.onSubmit}
        loading={props.saving}
        // A press does not take focus first: otherwise the field it leaves shows its message, the button moves
        // down before the mouse is released, and the click is lost. Submitting checks every field anyway.
        onMouseDown={(event) => event.preventDefault()}
      >
        {props.submitLabel ?? t('save')}
      </Button>
    </Group>
  );
}
