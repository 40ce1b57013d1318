// Discount codes and their rates. A rate is a fraction of the price: 0.1 means 10% off.
const PERCENT_OFF = { SAVE10: 10, HALF: 50 };

/** The discount rate of a code, as a fraction from 0 to 1; 0 for an unknown code. */
export function discountRate(code) {
  return PERCENT_OFF[code] ?? 0;
}
