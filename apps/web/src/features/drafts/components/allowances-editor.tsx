import { ActionIcon, Button, Fieldset, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { ALLOWANCE_REASONS, DRAFT_MAX_ALLOWANCES, type DraftAllowance } from '@portal/contracts';

const NEW_ALLOWANCE: DraftAllowance = { type: 'allowance', reason: 'DI', calculation: 'percentage', value: '' };

/**
 * A line's allowances and charges: each with its type, its reason (UNCL 7161) and a percentage of the line's gross
 * amount or a fixed amount. `net` is the line's net amount after them, when the money module could compute it.
 */
export function AllowancesEditor(props: {
  line: number;
  allowances: readonly DraftAllowance[];
  net?: string | undefined;
  readOnly: boolean;
  problemAt: (field: string) => string | undefined;
  onChange: (allowances: DraftAllowance[]) => void;
}) {
  const { t } = useTranslation('drafts');
  const { line, allowances, readOnly, problemAt, onChange } = props;
  const at = (index: number) => `lines.${line}.allowances.${index}`;
  const update = (index: number, patch: Partial<DraftAllowance>) =>
    onChange(allowances.map((a, i) => (i === index ? { ...a, ...patch } : a)));
  if (readOnly && allowances.length === 0) return null;
  return (
    <Stack gap="xs" mt="sm" data-testid={`draft-line-${line}-allowances`}>
      {allowances.map((allowance, index) => {
        const number = index + 1;
        return (
          <Fieldset
            key={index}
            variant="filled"
            legend={
              <Group gap="xs">
                <span>{t('form.allowances.item', { number })}</span>
                {readOnly ? null : (
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="sm"
                    aria-label={t('form.allowances.remove', { number, line: line + 1 })}
                    onClick={() => onChange(allowances.filter((_, i) => i !== index))}
                  >
                    <IconTrash size={16} aria-hidden />
                  </ActionIcon>
                )}
              </Group>
            }
          >
            <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }}>
              <Select
                label={t('form.allowances.type')}
                data={(['allowance', 'charge'] as const).map((v) => ({
                  value: v,
                  label: t(`form.allowances.types.${v}`),
                }))}
                value={allowance.type}
                onChange={(v) => v && update(index, { type: v as DraftAllowance['type'] })}
                readOnly={readOnly}
                allowDeselect={false}
                data-testid={`draft-line-${line}-allowance-${index}-type`}
              />
              <Select
                label={t('form.allowances.reason')}
                data={ALLOWANCE_REASONS.map((v) => ({ value: v, label: t(`form.allowances.reasons.${v}`) }))}
                value={allowance.reason || null}
                onChange={(v) => update(index, { reason: v ?? '' })}
                error={problemAt(`${at(index)}.reason`)}
                readOnly={readOnly}
                required
                data-testid={`draft-line-${line}-allowance-${index}-reason`}
              />
              <Select
                label={t('form.allowances.calculation')}
                data={(['percentage', 'amount'] as const).map((v) => ({
                  value: v,
                  label: t(`form.allowances.calculations.${v}`),
                }))}
                value={allowance.calculation}
                onChange={(v) => v && update(index, { calculation: v as DraftAllowance['calculation'] })}
                readOnly={readOnly}
                allowDeselect={false}
                data-testid={`draft-line-${line}-allowance-${index}-calculation`}
              />
              <TextInput
                label={
                  allowance.calculation === 'percentage' ? t('form.allowances.percentage') : t('form.allowances.amount')
                }
                value={allowance.value}
                onChange={(e) => update(index, { value: e.currentTarget.value })}
                error={problemAt(`${at(index)}.value`)}
                readOnly={readOnly}
                required
                inputMode="decimal"
                data-testid={`draft-line-${line}-allowance-${index}-value`}
              />
            </SimpleGrid>
          </Fieldset>
        );
      })}
      <Group gap="sm" justify="space-between" wrap="wrap">
        {readOnly || allowances.length >= DRAFT_MAX_ALLOWANCES ? (
          <span />
        ) : (
          <Button
            variant="subtle"
            size="xs"
            leftSection={<IconPlus size={14} aria-hidden />}
            onClick={() => onChange([...allowances, { ...NEW_ALLOWANCE }])}
            aria-label={t('form.allowances.addTo', { line: line + 1 })}
            data-testid={`draft-line-${line}-add-allowance`}
          >
            {t('form.allowances.add')}
          </Button>
        )}
        {props.net !== undefined && allowances.length ? (
          <Text size="sm" data-testid={`draft-line-${line}-net`}>
            {t('form.allowances.net', { amount: props.net })}
          </Text>
        ) : null}
      </Group>
    </Stack>
  );
}
