// The discount line printed on receipts.
import { discountRate } from "./rates.js";

/** "10% off" for SAVE10; "" when the code gives no discount. */
export function discountLabel(code) {
  const percent = discountRate(code);
  return percent > 0 ? `${percent}% off` : "";
}
