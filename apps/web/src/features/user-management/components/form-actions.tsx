import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** Cancel and submit under a dialog's form; the submit label defaults to Save. */
export function FormActions(props: { onCancel: () => void; saving: boolean; submitLabel?: string }) {
  const { t } = useTranslation('user-management');
  return (
    <Group justify="flex-end">
      <Button variant="default" onClick={props.onCancel}>
        {t('actions.cancel')}
      </Button>
      <Button type="submit" loading={props.saving}>
        {props.submitLabel ?? t('actions.save')}
      </Button>
    </Group>
  );
}
