/** Reloads the page; an object so tests can replace `reload` with a spy. */
export const pageReloader = {
  reload: (): void => window.location.reload(),
};
