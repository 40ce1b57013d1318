// Order totals.
import { discountRate } from "./rates.js";

/** The price after the code's discount, rounded to cents. */
export function total(price, code) {
  return Math.round(price * (1 - discountRate(code)) * 100) / 100;
}
