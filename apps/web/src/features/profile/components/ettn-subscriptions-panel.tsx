import { EttnSubscriptions } from '../../ettn/index.ts';

/** The e-TTN subscriptions panel: the company's aliases and subscriptions with their expiry (the ettn feature's). */
export function EttnSubscriptionsPanel() {
  return <EttnSubscriptions />;
}
