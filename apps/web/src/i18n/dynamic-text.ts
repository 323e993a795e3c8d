import i18next, { type FlatNamespace, type Namespace, type TFunction, type TOptions } from 'i18next';

/** A key whose namespace is known and whose rest comes from data (an error code, a status, a finding's variant). */
export type DynamicKey = `${FlatNamespace}:${string}`;

/** `t` over a key the typecheck cannot see: called only here, and only after the catalogs said they hold the key. */
type UncheckedT = (key: string, options?: TOptions) => string;

/**
 * The text of a key built at run time, or undefined when the catalogs do not hold it (so a screen never shows a bare
 * key). Keys written in the code are checked by the typecheck (`i18next.d.ts`); these cannot be, so they are checked
 * here, against the loaded catalogs. The one place where `t` takes a plain string.
 */
export function findText(key: DynamicKey, options?: TOptions): string | undefined {
  return i18next.exists(key, options) ? (i18next.t as unknown as UncheckedT)(key, options) : undefined;
}

/** `findText` through a given `t` and `exists` (another language, or a `useTranslation` namespace's own keys). */
export function findTextWith<Ns extends Namespace>(
  translator: { t: TFunction<Ns>; exists: (key: string) => boolean },
  key: string,
  options?: TOptions,
): string | undefined {
  return translator.exists(key) ? (translator.t as unknown as UncheckedT)(key, options) : undefined;
}
