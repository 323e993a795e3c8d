import { Alert, Anchor, Button, List, Modal, Text } from '@mantine/core';
import { IconExternalLink, IconRocket } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FIRST_TIME_DIALOG_DELAY_MS } from '@portal/contracts';

/** The official site of the Polish national e-invoicing system the demo integrates with. */
export const KSEF_INFO_URL = 'https://ksef.podatki.gov.pl/';
/** Local flag of the first-time manual (description, section 9): 'true' once the user has closed it. */
export const FIRST_TIME_STORAGE_KEY = 'FIRST_TIME';

/** The demo-ksef promotional banner about the e-invoicing integration, linking to the external site. */
export function DemoKsefBanner() {
  const { t } = useTranslation('layout');
  return (
    <Alert
      variant="light"
      color="grape"
      radius="md"
      mb="md"
      icon={<IconRocket size={22} aria-hidden />}
      title={t('demoKsef.bannerTitle')}
      data-testid="demo-ksef-banner"
      role="region"
      aria-label={t('demoKsef.bannerTitle')}
    >
      <Text size="sm">{t('demoKsef.bannerText')}</Text>
      <Anchor
        href={KSEF_INFO_URL}
        target="_blank"
        rel="noopener noreferrer"
        size="sm"
        fw={600}
        // Dark on the light violet of the banner: the link colour alone is too faint there (axe, colour contrast).
        c="dark.7"
        underline="always"
        mt={4}
        display="inline-flex"
        style={{ alignItems: 'center', gap: 4 }}
      >
        {t('demoKsef.bannerLink')}
        <IconExternalLink size={14} aria-hidden />
      </Anchor>
    </Alert>
  );
}

/** The demo-ksef first-time manual: shown 1 s after the layout opens unless FIRST_TIME is 'true'; closing sets it. */
export function FirstTimeDialog({
  storage = window.localStorage,
  onOpened,
  onClosed,
}: {
  storage?: Pick<Storage, 'getItem' | 'setItem'>;
  /** Told when the manual opens and when the user closes it: the e-TTN check waits for it. */
  onOpened?: () => void;
  onClosed?: () => void;
}) {
  const { t } = useTranslation('layout');
  const [opened, setOpened] = useState(false);

  useEffect(() => {
    if (storage.getItem(FIRST_TIME_STORAGE_KEY) === 'true') return;
    const timer = setTimeout(() => {
      setOpened(true);
      onOpened?.();
    }, FIRST_TIME_DIALOG_DELAY_MS);
    return () => clearTimeout(timer);
    // Opened once per mount: a new onOpened identity must not restart the timer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [storage]);

  const close = () => {
    storage.setItem(FIRST_TIME_STORAGE_KEY, 'true');
    setOpened(false);
    onClosed?.();
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('demoKsef.manualTitle')}
      centered
      size="lg"
      data-testid="first-time-dialog"
    >
      <Text size="sm">{t('demoKsef.manualText')}</Text>
      <List type="ordered" size="sm" mt="sm" spacing={4}>
        <List.Item>{t('demoKsef.manualStep1')}</List.Item>
        <List.Item>{t('demoKsef.manualStep2')}</List.Item>
        <List.Item>{t('demoKsef.manualStep3')}</List.Item>
      </List>
      <Button mt="lg" fullWidth onClick={close}>
        {t('demoKsef.manualClose')}
      </Button>
    </Modal>
  );
}
