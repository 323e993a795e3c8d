import { Button, Checkbox, Group, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FEATURE_TOGGLES, type AdminCompany, type FeatureToggle } from '@portal/contracts';
import { showError, showSuccess } from '../../../lib/notify.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useSetCompanyToggles } from '../api/admin-mutations.ts';

const isToggle = (value: string): value is FeatureToggle => (FEATURE_TOGGLES as readonly string[]).includes(value);

/** The company's feature toggles (description, section 6, "extra toggles"), each with what it switches on. */
export function CompanyTogglesForm({ company }: { company: AdminCompany }) {
  const { t } = useTranslation('admin');
  const save = useSetCompanyToggles(company.id);
  const [selected, setSelected] = useState<string[]>(company.toggles);
  const changed =
    selected.length !== company.toggles.length ||
    selected.some((toggle) => !company.toggles.includes(toggle as FeatureToggle));

  async function onSave() {
    // Sent in the catalogue's order, so the stored list does not depend on the order of clicks.
    const toggles = FEATURE_TOGGLES.filter((toggle) => selected.includes(toggle));
    try {
      await save.mutateAsync(toggles);
      showSuccess({ message: t('toggles.saved') });
    } catch (error) {
      showError({ message: errorText(error, 'admin') });
    }
  }

  return (
    <Stack>
      <Checkbox.Group
        label={t('toggles.label')}
        value={selected}
        onChange={(value) => setSelected(value.filter(isToggle))}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} mt="xs" spacing="md">
          {FEATURE_TOGGLES.map((toggle) => (
            <Checkbox
              key={toggle}
              value={toggle}
              label={t(`toggles.names.${toggle}`)}
              description={t(`toggles.explain.${toggle}`)}
            />
          ))}
        </SimpleGrid>
      </Checkbox.Group>
      <Group justify="flex-end">
        <Button onClick={() => void onSave()} loading={save.isPending} disabled={!changed}>
          {t('toggles.save')}
        </Button>
      </Group>
    </Stack>
  );
}
