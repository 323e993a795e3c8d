import { useDebouncedCallback } from '@mantine/hooks';
import { useLocation, useRouter } from '@tanstack/react-router';
import { useEffect, useState } from 'react';

/**
 * A text filter typed into a field and kept in the address: the field answers at once, the address (and so the
 * query) follows after a short pause. A pause still running when the user leaves the page (a click on a result) is
 * dropped, so it cannot pull them back to the list.
 */
export function useSearchParam(
  value: string | undefined,
  onCommit: (value: string | undefined) => void,
  delayMs = 300,
) {
  const router = useRouter();
  const here = useLocation({ select: (location) => location.pathname });
  const [text, setText] = useState(value ?? '');
  const commit = useDebouncedCallback((next: string) => {
    // `latestLocation` is the target of a navigation still loading: only a list that stays on screen takes the filter.
    if (router.latestLocation.pathname !== here) return;
    onCommit(next.trim() || undefined);
  }, delayMs);
  useEffect(() => () => commit.cancel(), [commit]);
  // Back and forward in the browser change the address: the field follows (adjusted during render, not in an effect).
  const [shown, setShown] = useState(value);
  if (shown !== value) {
    setShown(value);
    if (text.trim() !== (value ?? '')) setText(value ?? '');
  }
  return {
    value: text,
    onChange: (next: string) => {
      setText(next);
      commit(next);
    },
  };
}
