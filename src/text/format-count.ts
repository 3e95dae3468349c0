/**
 * A count as people read it: rounded, with thousands separators in one style whatever the
 * machine's locale (1,234,567). Every token, byte and window figure debussy writes goes through here.
 */
export function formatCount(value: number): string {
  return Math.round(value).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
