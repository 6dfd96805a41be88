// Money as the service stores it: integer cents. A runtime's or provider's cost in US dollars
// becomes cents here, one way everywhere (runner runs, the edge agent): rounded to the nearest
// cent, halves up, after removing floating-point noise (0.015 → 2, not 1).
export function usdToCents(usd: number): number {
  if (!Number.isFinite(usd) || usd <= 0) return 0;
  return Math.round(Number((usd * 100).toFixed(6)));
}
