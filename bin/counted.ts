/** "1 tool", "3 tools": a count with its noun agreeing (`many` for an irregular plural). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}
