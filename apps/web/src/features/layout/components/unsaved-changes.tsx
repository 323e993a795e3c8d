import { Button, Group, Modal, Text } from '@mantine/core';
import { useBlocker } from '@tanstack/react-router';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../../app/session/session-context.tsx';

/**
 * Unsaved changes (description, section 2): logout asks 'Unsaved changes: Your changes will not be saved. Do you want
 * to leave this site?' with Stay or Leave, and leaving a page that registered unsaved changes asks the same.
 */
export type UnsavedChanges = {
  /** Whether any mounted page has registered unsaved changes. */
  isDirty: () => boolean;
  /**
   * Resolves true when there is nothing to lose or the user chose Leave; false for Stay. `always` asks even when no
   * page registered changes (logout: the description has it ask every time).
   */
  confirmLeave: (options?: { always?: boolean }) => Promise<boolean>;
  /** Marks the page as being left on purpose (after Leave or a logout): no further question until it unmounts. */
  markLeaving: () => void;
  isLeaving: () => boolean;
  setDirty: (id: string, dirty: boolean) => void;
};

const UnsavedChangesContext = createContext<UnsavedChanges | undefined>(undefined);

export function UnsavedChangesProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation('layout');
  const session = useSession();
  const dirtyIds = useRef(new Set<string>());
  const leaving = useRef(false);
  const pending = useRef<((leave: boolean) => void) | undefined>(undefined);
  const [asking, setAsking] = useState(false);

  // Any logout (by the user after Leave, or an expired session) leaves the page: never block its navigation.
  useEffect(() => session.onLogout(() => (leaving.current = true)), [session]);

  const answer = useCallback((leave: boolean) => {
    const resolve = pending.current;
    pending.current = undefined;
    setAsking(false);
    if (leave) {
      dirtyIds.current.clear();
      leaving.current = true;
      // A later visit to another page starts clean again.
      queueMicrotask(() => (leaving.current = false));
    }
    resolve?.(leave);
  }, []);

  const value = useMemo<UnsavedChanges>(
    () => ({
      isDirty: () => dirtyIds.current.size > 0,
      isLeaving: () => leaving.current,
      markLeaving: () => {
        leaving.current = true;
      },
      setDirty: (id, dirty) => {
        if (dirty) dirtyIds.current.add(id);
        else dirtyIds.current.delete(id);
      },
      confirmLeave: (options) => {
        if (leaving.current || (dirtyIds.current.size === 0 && !options?.always)) return Promise.resolve(true);
        pending.current?.(false);
        setAsking(true);
        return new Promise<boolean>((resolve) => {
          pending.current = resolve;
        });
      },
    }),
    [],
  );

  return (
    <UnsavedChangesContext.Provider value={value}>
      {children}
      {asking ? (
        <Modal opened onClose={() => answer(false)} title={t('unsaved.title')} centered>
          <Text>{t('unsaved.text')}</Text>
          <Group justify="flex-end" mt="lg">
            <Button variant="default" onClick={() => answer(false)} data-autofocus>
              {t('unsaved.stay')}
            </Button>
            <Button color="red" onClick={() => answer(true)}>
              {t('unsaved.leave')}
            </Button>
          </Group>
        </Modal>
      ) : null}
    </UnsavedChangesContext.Provider>
  );
}

/** The layout's unsaved-changes service (logout consults it). */
export function useUnsavedChangesContext(): UnsavedChanges {
  const value = useContext(UnsavedChangesContext);
  if (!value) throw new Error('useUnsavedChangesContext must be used inside UnsavedChangesProvider (the main layout)');
  return value;
}

/**
 * Registers unsaved changes of a page (e.g. a dirty form on /profile): while `dirty`, leaving by a link, the back
 * button or logout asks Stay/Leave, and closing the tab asks the browser's own question.
 */
export function useUnsavedChanges(dirty: boolean): void {
  const context = useUnsavedChangesContext();
  const id = useId();
  useEffect(() => {
    context.setDirty(id, dirty);
    return () => context.setDirty(id, false);
  }, [context, id, dirty]);
  useBlocker({
    shouldBlockFn: async () => (context.isLeaving() ? false : !(await context.confirmLeave())),
    enableBeforeUnload: dirty,
    disabled: !dirty,
  });
}
