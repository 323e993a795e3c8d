import { within } from '@testing-library/react';

/** Mantine's pills inputs label both their wrapper and the text field; the field is the one to type in. */
export function inputLabelled(container: HTMLElement, label: string): HTMLElement {
  const input = within(container)
    .getAllByLabelText(label)
    .find((el) => el.tagName === 'INPUT');
  if (!input) throw new Error(`no input labelled ${label}`);
  return input;
}
