import { render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { PasswordChecklist } from './password-checklist.tsx';

function metRules(): Record<string, string | null> {
  return Object.fromEntries(
    ['minLength', 'upper', 'lower', 'digit', 'special'].map((rule) => [
      rule,
      screen.getByTestId(`password-rule-${rule}`).getAttribute('data-met'),
    ]),
  );
}

describe('PasswordChecklist', () => {
  it('ticks each rule live as the password meets it', () => {
    const { rerender } = render(
      <MantineProvider env="test">
        <PasswordChecklist password="" />
      </MantineProvider>,
    );
    expect(screen.getByText('At least 8 characters')).toBeTruthy();
    expect(Object.values(metRules()).every((v) => v === 'false')).toBe(true);

    rerender(
      <MantineProvider env="test">
        <PasswordChecklist password="abcDEF1" />
      </MantineProvider>,
    );
    expect(metRules()).toEqual({ minLength: 'false', upper: 'true', lower: 'true', digit: 'true', special: 'false' });

    rerender(
      <MantineProvider env="test">
        <PasswordChecklist password="abcDEF1#" />
      </MantineProvider>,
    );
    expect(Object.values(metRules()).every((v) => v === 'true')).toBe(true);
    // Screen readers hear the state, not only a colour and an icon.
    expect(screen.getAllByText('(met)')).toHaveLength(5);
  });
});
