/**
 * /help opened directly (a link or a reload): the main layout shows the help dialog for this path, so the page
 * behind it stays empty.
 */
export function HelpRoutePage() {
  return null;
}
