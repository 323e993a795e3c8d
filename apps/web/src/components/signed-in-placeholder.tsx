import { Avatar, Button, Container, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowsExchange, IconLogout } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export type SignedInUser = { name: string; email: string };

/** A plain frame for pages whose real layout comes later: who is signed in, and a way out. */
export function SignedInPlaceholder(props: {
  title: string;
  user: SignedInUser;
  onLogout: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation('common');
  const initials = props.user.name
    .split(/\s+/)
    .map((part) => part.charAt(0))
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <>
      <header>
        <Group
          justify="space-between"
          px="lg"
          py="sm"
          bg="white"
          style={{ borderBottom: '1px solid var(--mantine-color-gray-3)' }}
        >
          <Group gap="xs" c="blue.9" fw={700}>
            <IconArrowsExchange size={22} aria-hidden />
            <Text fw={700} c="blue.9">
              Open EDI Portal
            </Text>
          </Group>
          <Button variant="default" leftSection={<IconLogout size={18} aria-hidden />} onClick={props.onLogout}>
            {t('logout')}
          </Button>
        </Group>
      </header>
      <Container component="main" size="sm" py="xl">
        <Paper withBorder shadow="sm" radius="lg" p="xl">
          <Stack>
            <Title order={1}>{props.title}</Title>
            <Group data-testid="signed-in-user">
              <Avatar color="blue" radius="xl" aria-hidden>
                {initials || '?'}
              </Avatar>
              <div>
                <Text size="sm" c="dimmed">
                  {t('signedInAs')}
                </Text>
                <Text fw={600} data-testid="signed-in-name">
                  {props.user.name}
                </Text>
                <Text size="sm" data-testid="signed-in-email">
                  {props.user.email}
                </Text>
              </div>
            </Group>
            {props.children}
          </Stack>
        </Paper>
      </Container>
    </>
  );
}
