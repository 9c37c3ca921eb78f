// The JSON the benchmarks store and send, one definition for every bench script.

/** ~1 KB of JSON, as an invoice event: the data of the endpoints the benchmarks read. */
export const invoice = {
  id: 'evt_01HZY3',
  type: 'invoice.paid',
  created: 1764000000,
  livemode: false,
  items: Array.from({ length: 8 }, (_, i) => ({
    sku: `SKU-${1000 + i}`,
    qty: i + 1,
    price: 9.99 * (i + 1),
    note: 'x'.repeat(40),
  })),
};
