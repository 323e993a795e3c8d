import { Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ETTN_EXPIRY_WARNING_MS, FIRST_TIME_DIALOG_DELAY_MS } from '@portal/contracts';
import { useApi } from '../../../lib/api-context.tsx';
import { emailHash } from '../../../lib/email-hash.ts';
import { calendarDay, formatDateTime } from '../../../lib/format.ts';
import { ettnAliasesQuery, expiryItems, type EttnExpiringItem } from '../../ettn/index.ts';

/** The e-TTN check runs one second after the first-time manual dialog's moment (description, section 9). */
export const ETTN_CHECK_DELAY_MS = FIRST_TIME_DIALOG_DELAY_MS + 1000;

/** Where the browser remembers that a user saw the notice today: once a day per user, like the payment reminder. */
export const ettnExpirySeenKey = async (email: string) => `ettnExpirySeen.${await emailHash(email)}`;

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem'>;

/**
 * The e-TTN expiry dialog: when one of the company's aliases or subscriptions expires within 14 days (the server's
 * `expiresSoon`, by its clock), says which and leads to the profile's ettn-subscriptions panel to renew. It waits
 * while the first-time manual dialog is open (`held`), then checks one second later.
 */
export function EttnExpiryDialog({
  email,
  held = false,
  storage = window.localStorage,
}: {
  email: string;
  held?: boolean;
  storage?: Storage;
}) {
  const { t, i18n, ready } = useTranslation('ettn');
  const api = useApi();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [items, setItems] = useState<EttnExpiringItem[]>([]);
  const [opened, setOpened] = useState(false);
  // Checked once per layout: a ref, so that marking it does not re-run the effect and drop the answer.
  const checked = useRef(false);
  const wasHeld = useRef(false);

  useEffect(() => {
    if (held) {
      wasHeld.current = true;
      return;
    }
    if (checked.current) return;
    let active = true;
    const timer = setTimeout(
      () => {
        checked.current = true;
        void (async () => {
          const key = await ettnExpirySeenKey(email);
          const today = calendarDay(new Date());
          if (storage.getItem(key) === today) return;
          // Failures are not the user's business here: the API client already reports server errors.
          const data = await queryClient.fetchQuery(ettnAliasesQuery(api)).catch(() => undefined);
          if (!active || !data?.expiresSoon) return;
          // The server's clock decides what is "soon": all still valid that end within 14 days of its earliest.
          const until = new Date(data.expiresSoon).getTime() + ETTN_EXPIRY_WARNING_MS;
          const valid = new Set([
            ...data.aliases.filter((a) => a.isRegistered).map((a) => `alias-${a.value}`),
            ...data.subscriptions.filter((s) => !s.expired).map((s) => `subscription-${s.id}`),
          ]);
          const soon = expiryItems(data).filter(
            (item) => valid.has(item.key) && new Date(item.expiresAt).getTime() <= until,
          );
          if (soon.length === 0) return;
          storage.setItem(key, today);
          setItems(soon);
          setOpened(true);
        })();
      },
      // After the manual dialog closes: one second; otherwise its moment plus one second.
      wasHeld.current ? 1000 : ETTN_CHECK_DELAY_MS,
    );
    return () => {
      active = false;
      clearTimeout(timer);
    };
  }, [held, email, storage, api, queryClient]);

  const close = () => setOpened(false);
  const renew = () => {
    close();
    void navigate({ to: '/profile', search: { panel: 'ettn-subscriptions' } });
  };

  // Its texts are the e-TTN feature's, loaded with it: nothing to render before them.
  if (!ready) return null;
  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('expiry.title')}
      centered
      size="lg"
      data-testid="ettn-expiry-dialog"
    >
      <Stack gap="sm">
        <Text size="sm">{t('expiry.text')}</Text>
        <List size="sm" spacing={4}>
          {items.map((item) => (
            <List.Item key={item.key}>
              {t('expiry.item', {
                name: t(`subscriptions.kind.${item.kind}`, { value: item.value }),
                date: formatDateTime(i18n.language, item.expiresAt),
              })}
            </List.Item>
          ))}
        </List>
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={close}>
            {t('expiry.later')}
          </Button>
          <Button onClick={renew} data-testid="ettn-expiry-renew">
            {t('expiry.open')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
