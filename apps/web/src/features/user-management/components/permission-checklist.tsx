import { Checkbox, Fieldset, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { FEATURE_PERMISSIONS, type FeaturePermission } from '@portal/contracts';
import { PERMISSION_AREAS } from '../permission-areas.ts';

/** The 24 feature permissions as a checklist grouped by area, with translated labels. */
export function PermissionChecklist(props: {
  value: readonly FeaturePermission[];
  onChange: (permissions: FeaturePermission[]) => void;
  readOnly?: boolean;
  error?: string;
}) {
  const { t } = useTranslation('user-management');
  const selected = new Set(props.value);
  const toggle = (permission: FeaturePermission, on: boolean) => {
    const next = new Set(selected);
    if (on) next.add(permission);
    else next.delete(permission);
    // Keep the order of the areas, so the request is stable.
    props.onChange(PERMISSION_AREAS.flatMap((a) => a.permissions).filter((p) => next.has(p)));
  };
  return (
    <Fieldset legend={t('groups.fields.permissions')} data-testid="permission-checklist">
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          {t('groups.permissionsHint', { selected: props.value.length, total: FEATURE_PERMISSIONS.length })}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
          {PERMISSION_AREAS.map(({ area, permissions }) => (
            <Fieldset key={area} legend={t(`permissions.areas.${area}`)} variant="filled" p="sm">
              <Stack gap={6}>
                {permissions.map((permission) => (
                  <Checkbox
                    key={permission}
                    value={permission}
                    label={t(`permissions.labels.${permission}`)}
                    checked={selected.has(permission)}
                    disabled={props.readOnly}
                    onChange={(event) => toggle(permission, event.currentTarget.checked)}
                    data-testid={`permission-${permission}`}
                  />
                ))}
              </Stack>
            </Fieldset>
          ))}
        </SimpleGrid>
        {props.error ? (
          <Text size="sm" c="red.8" role="alert">
            {props.error}
          </Text>
        ) : null}
      </Stack>
    </Fieldset>
  );
}
