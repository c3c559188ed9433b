export interface PayloadTemplate {
  id: string;
  label: string;
  json: boolean;
  /** Made fresh on every pick, so two test messages are not identical. */
  payload: () => string;
}

const randomId = () => Math.floor(Math.random() * 90_000) + 10_000;
const pretty = (value: unknown) => JSON.stringify(value, null, 2);

export const TEMPLATES: PayloadTemplate[] = [
  {
    id: 'order',
    label: 'Order placed',
    json: true,
    payload: () =>
      pretty({
        orderId: randomId(),
        customer: { id: randomId(), email: 'ada@example.com' },
        items: [{ sku: 'BOOK-42', quantity: 1, price: 19.9 }],
        placedAt: new Date().toISOString(),
      }),
  },
  {
    id: 'signup',
    label: 'User signed up',
    json: true,
    payload: () => pretty({ userId: randomId(), email: 'grace@example.com', plan: 'free', signedUpAt: new Date().toISOString() }),
  },
  { id: 'email', label: 'Send an email', json: true, payload: () => pretty({ to: 'ada@example.com', template: 'welcome', variables: { name: 'Ada' } }) },
  { id: 'empty', label: 'Empty JSON object', json: true, payload: () => '{}' },
  { id: 'text', label: 'Plain text', json: false, payload: () => 'Hello from the MiniQueue dashboard' },
];
