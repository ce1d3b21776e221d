/* Numbers and names as the viewer writes them (pure functions, no DOM). */

export const MINUS = "\u2212";

/** 25000 -> "25,000" (the absolute value). */
export function points(value) {
  return Math.abs(value).toLocaleString("en-US");
}

/** A score: "25,000", "−1,200". */
export function scoreText(value) {
  return (value < 0 ? MINUS : "") + points(value);
}

/** A change: "+1,000", "−1,000", "0". */
export function signed(value) {
  if (value > 0) {
    return "+" + points(value);
  }
  if (value < 0) {
    return MINUS + points(value);
  }
  return "0";
}

/** Final points, one decimal, always signed: "+43.6", "−33.6", "+0.0". */
export function finalPoints(value) {
  const text = Math.abs(value).toFixed(1);
  return (value < 0 && text !== "0.0" ? MINUS : "+") + text;
}

/** An engine name in words: "seat_wind_south" -> "Seat wind south". */
export function words(name) {
  const text = String(name).replace(/_/g, " ");
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function clamp(value, low, high) {
  return Math.max(low, Math.min(high, value));
}
