/** Seeds shared into `count` groups in a snake (A B C C B A …), so each group gets a fair mix of strong and weak. */
export function snakeGroups<T>(ordered: readonly T[], count: number): T[][] {
  const groups: T[][] = Array.from({ length: count }, () => []);
  ordered.forEach((item, index) => {
    const lap = Math.floor(index / count);
    const at = index % count;
    groups[lap % 2 === 0 ? at : count - 1 - at]!.push(item);
  });
  return groups;
}
