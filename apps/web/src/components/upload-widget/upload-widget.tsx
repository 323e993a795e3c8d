import '@mantine/dropzone/styles.css';
import { ActionIcon, Badge, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { IconCloudUpload, IconFile, IconX } from '@tabler/icons-react';
import { useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes, type UploadItem, type UploadLimits, type UploadStatus } from './upload-files.ts';
import classes from './upload-widget.module.css';

const STATUS_COLOR: Record<UploadStatus, string> = {
  pending: 'gray',
  loading: 'blue',
  completed: 'green',
  error: 'red',
};

export type UploadWidgetProps = {
  items: readonly UploadItem[];
  limits: UploadLimits;
  onAdd: (files: File[]) => void;
  onRemove: (id: string) => void;
  /** While a request is under way no file can be added or removed. */
  disabled?: boolean;
  label: string;
};

/**
 * Drag-and-drop upload (description, sections 2 and 4): drop files or press "Choose files"; each file shows its
 * state (pending, loading, completed, error) with a progress bar, and a file breaking a limit says which one.
 */
export function UploadWidget({ items, limits, onAdd, onRemove, disabled, label }: UploadWidgetProps) {
  const { t, i18n } = useTranslation('layout');
  const openRef = useRef<() => void>(null);
  const hintId = useId();
  const labelId = useId();
  const bytes = (n: number) => formatBytes(n, i18n.language);
  const types = limits.extensions.map((e) => e.toUpperCase()).join(', ');

  return (
    <Stack gap="sm" role="group" aria-labelledby={labelId}>
      <Text id={labelId} fw={500} size="sm">
        {label}
      </Text>
      <Dropzone
        openRef={openRef}
        onDrop={(files) => onAdd(files)}
        onReject={(rejections) => onAdd(rejections.map((r) => r.file))}
        activateOnClick={false}
        activateOnKeyboard={false}
        enablePointerEvents
        disabled={disabled}
        multiple
        inputProps={{
          accept: limits.extensions.map((e) => `.${e}`).join(','),
          // Named by the widget's label; "Choose files" is the visible button that opens it.
          'aria-labelledby': labelId,
          'aria-describedby': hintId,
        }}
        className={classes.zone}
        data-testid="upload-dropzone"
      >
        <Stack align="center" gap="xs">
          <IconCloudUpload size={40} stroke={1.5} aria-hidden />
          <Text fw={600}>{t('upload.dropTitle')}</Text>
          <Text size="sm" c="dimmed" ta="center" id={hintId}>
            {t('upload.dropHint', {
              maxFiles: limits.maxFiles,
              maxFile: bytes(limits.maxFileBytes),
              maxTotal: bytes(limits.maxTotalBytes),
              types,
            })}
          </Text>
          <Button variant="light" onClick={() => openRef.current?.()} disabled={disabled} aria-describedby={hintId}>
            {t('upload.choose')}
          </Button>
        </Stack>
      </Dropzone>
      {items.length > 0 ? (
        <ul className={classes.list} aria-label={t('upload.listLabel')} data-testid="upload-list">
          {items.map((item) => (
            <li key={item.id} className={classes.item} data-status={item.status} data-testid="upload-item">
              <Group justify="space-between" wrap="nowrap" gap="sm">
                <Group gap="xs" wrap="nowrap" miw={0}>
                  <IconFile size={20} aria-hidden />
                  <Text size="sm" truncate="end" fw={500}>
                    {item.file.name}
                  </Text>
                  <Text size="xs" c="dimmed" className={classes.size}>
                    {bytes(item.file.size)}
                  </Text>
                </Group>
                <Group gap="xs" wrap="nowrap">
                  <Badge color={STATUS_COLOR[item.status]} c="dark.7" variant="light" data-testid="upload-status">
                    {t(`upload.status.${item.status}`)}
                  </Badge>
                  <ActionIcon
                    variant="subtle"
                    color="gray"
                    onClick={() => onRemove(item.id)}
                    disabled={disabled}
                    aria-label={t('upload.remove', { name: item.file.name })}
                  >
                    <IconX size={18} aria-hidden />
                  </ActionIcon>
                </Group>
              </Group>
              {item.status === 'error' ? null : (
                <Progress
                  mt={6}
                  size="sm"
                  value={item.progress}
                  color={STATUS_COLOR[item.status]}
                  aria-label={t('upload.progress', { name: item.file.name })}
                />
              )}
              {item.error ? (
                <Text size="sm" c="red.9" mt={4} role="alert">
                  {t(`upload.errors.${item.error.code}`, {
                    name: item.file.name,
                    size: bytes(item.file.size),
                    max:
                      item.error.code === 'tooManyFiles'
                        ? limits.maxFiles
                        : bytes(item.error.code === 'totalTooLarge' ? limits.maxTotalBytes : limits.maxFileBytes),
                    types,
                  })}
                </Text>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
    </Stack>
  );
}
