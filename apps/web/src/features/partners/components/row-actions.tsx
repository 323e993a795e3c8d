import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Edit and delete icons of a partner; each button's name says which partner it acts on. */
export function PartnerRowActions(props: { name: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation('partners');
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t('actions.edit')}>
        <ActionIcon variant="subtle" onClick={props.onEdit} aria-label={t('actions.editNamed', { name: props.name })}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('actions.delete')}>
        <ActionIcon
          variant="subtle"
          color="red"
          onClick={props.onDelete}
          aria-label={t('actions.deleteNamed', { name: props.name })}
        >
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
