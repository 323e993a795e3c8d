// The payment-reminder feature's public surface (decision 0016): the reminder the main layout shows.
export { PaymentReminder } from './components/payment-reminder.tsx';
