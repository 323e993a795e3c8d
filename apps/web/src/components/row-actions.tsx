import { ActionIcon, Group, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';

/** Edit and delete icons of a row; each button's name says which row it acts on. */
export function EditDeleteActions(props: {
  editLabel: string;
  deleteLabel: string;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation('common');
  return (
    <Group gap={4} justify="flex-end" wrap="nowrap">
      <Tooltip label={t('edit')}>
        <ActionIcon variant="subtle" onClick={props.onEdit} aria-label={props.editLabel}>
          <IconPencil size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
      <Tooltip label={t('delete')}>
        <ActionIcon variant="subtle" color="red" onClick={props.onDelete} aria-label={props.deleteLabel}>
          <IconTrash size={18} aria-hidden />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
