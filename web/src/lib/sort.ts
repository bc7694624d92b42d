// Client-side sorting of one page of keywords: missing values always last, whatever the direction.

export type SortKey = 'keyword' | 'current_position' | 'change' | 'search_volume' | 'difficulty' | 'intent' | 'url';
type Row = { keyword: string; current_position: number | null; previous_position: number | null; search_volume: number; difficulty: number; intent: string; url: string | null };

const valueOf = (row: Row, key: SortKey): string | number | null => {
  if (key === 'change') return row.current_position === null || row.previous_position === null ? null : row.previous_position - row.current_position;
  return row[key];
};

export function sortRows<T extends Row>(rows: T[], key: SortKey, dir: 'asc' | 'desc'): T[] {
  const sign = dir === 'asc' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = valueOf(a, key);
    const y = valueOf(b, key);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return order * sign || a.keyword.localeCompare(b.keyword);
  });
}
