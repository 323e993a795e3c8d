import { ActionIcon, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconEye, IconEyeOff } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_DOCUMENT_COLUMNS, DOCUMENT_COLUMNS, type DocumentColumn } from '@portal/contracts';
import { FormActions } from '../../../components/form-actions.tsx';

/** Moves the column at `index` one place up (-1) or down (+1); at an end, nothing changes. */
export function moveColumn(columns: readonly DocumentColumn[], index: number, by: -1 | 1): DocumentColumn[] {
  const target = index + by;
  if (index < 0 || target < 0 || target >= columns.length) return [...columns];
  const next = [...columns];
  [next[index], next[target]] = [next[target]!, next[index]!];
  return next;
}

/**
 * The column chooser: the shown columns in their order, each with up, down and hide buttons (so it works without a
 * mouse), and the hidden ones with a show button. Saved for the user through `onSave`.
 */
export function ColumnChooser(props: {
  columns: readonly DocumentColumn[];
  saving: boolean;
  onSave: (columns: DocumentColumn[]) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('documents');
  const [shown, setShown] = useState<DocumentColumn[]>([...props.columns]);
  const hidden = DOCUMENT_COLUMNS.filter((c) => !shown.includes(c));
  const name = (column: DocumentColumn) => t(`columns.${column}`);

  return (
    <Modal opened onClose={props.onClose} title={t('chooser.title')} size="lg">
      <Stack gap="md">
        <Text size="sm">{t('chooser.hint')}</Text>
        <section aria-labelledby="chooser-shown">
          <Title order={3} size="h5" id="chooser-shown" mb="xs">
            {t('chooser.shown')}
          </Title>
          <Stack gap={4} component="ol" m={0} p={0} style={{ listStyle: 'none' }} data-testid="chooser-shown">
            {shown.map((column, index) => (
              <Group key={column} component="li" justify="space-between" wrap="nowrap" data-column={column}>
                <Text size="sm">{name(column)}</Text>
                <Group gap={4} wrap="nowrap">
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    aria-label={t('chooser.up', { column: name(column) })}
                    disabled={index === 0}
                    onClick={() => setShown((current) => moveColumn(current, index, -1))}
                  >
                    <IconArrowUp size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    aria-label={t('chooser.down', { column: name(column) })}
                    disabled={index === shown.length - 1}
                    onClick={() => setShown((current) => moveColumn(current, index, 1))}
                  >
                    <IconArrowDown size={18} aria-hidden />
                  </ActionIcon>
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    aria-label={t('chooser.hide', { column: name(column) })}
                    disabled={shown.length === 1}
                    title={shown.length === 1 ? t('chooser.lastColumn') : undefined}
                    onClick={() => setShown((current) => current.filter((c) => c !== column))}
                  >
                    <IconEyeOff size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
            ))}
          </Stack>
        </section>
        {hidden.length > 0 ? (
          <section aria-labelledby="chooser-hidden">
            <Title order={3} size="h5" id="chooser-hidden" mb="xs">
              {t('chooser.hidden')}
            </Title>
            <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: 'none' }} data-testid="chooser-hidden">
              {hidden.map((column) => (
                <Group key={column} component="li" justify="space-between" wrap="nowrap" data-column={column}>
                  <Text size="sm">{name(column)}</Text>
                  <ActionIcon
                    variant="subtle"
                    color="gray.8"
                    aria-label={t('chooser.show', { column: name(column) })}
                    onClick={() => setShown((current) => [...current, column])}
                  >
                    <IconEye size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              ))}
            </Stack>
          </section>
        ) : null}
        <Group justify="space-between" wrap="wrap">
          <Button variant="subtle" onClick={() => setShown([...DEFAULT_DOCUMENT_COLUMNS])}>
            {t('chooser.reset')}
          </Button>
          <FormActions onCancel={props.onClose} saving={props.saving} onSubmit={() => props.onSave(shown)} />
        </Group>
      </Stack>
    </Modal>
  );
}
