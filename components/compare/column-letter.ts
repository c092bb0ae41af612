/** Columns are named A, B, C, D on the page, in the summary and in the approval dialog. */
export function columnLetter(index: number): string {
  return String.fromCharCode(65 + index);
}
